extension RemotePage {
    /// The page's CSS: one column on a phone (375 px), wider on a desktop. The seek preview opens
    /// below the bar (above it, the top of the page would cut it off), a fixed 164 px wide so the script
    /// can keep it inside the bar's width.
    static let style = """
    *{box-sizing:border-box}[hidden]{display:none!important}body{font:16px system-ui,sans-serif;margin:0 auto;max-width:760px;padding:12px;background:#15171c;color:#eee}
    header{display:flex;align-items:center;gap:8px;flex-wrap:wrap}h1{font-size:20px;margin:0;flex:1;overflow-wrap:anywhere}
    h2{font-size:16px;margin:16px 0 6px}.badge{background:#2d6cdf;border-radius:10px;padding:2px 10px;font-size:14px}
    #notice{background:#8a1c1c;padding:8px;border-radius:6px}section{background:#1f232b;border-radius:8px;padding:10px;margin-top:10px}
    .row{display:flex;justify-content:space-between;align-items:center;gap:8px}.buttons{justify-content:center;margin:8px 0}
    button{font-size:18px;min-width:64px;min-height:44px;border:0;border-radius:8px;background:#343a46;color:#fff}
    button:disabled,select:disabled,input:disabled{opacity:.4}input[type=range]{width:100%}#seekwrap{position:relative}
    #seek{height:32px}label{display:flex;gap:8px;align-items:center;margin:6px 0}select{flex:1;font-size:16px;padding:4px}
    #preview{position:absolute;top:36px;z-index:2;width:164px;background:#000;padding:2px;border-radius:4px;text-align:center;font-size:12px}
    #preview img{display:block;width:160px}ol{margin:0;padding-left:24px}li{padding:4px 0;display:flex;gap:6px;align-items:center}
    li span{flex:1;overflow-wrap:anywhere;cursor:pointer}li.current span{color:#7fb2ff;font-weight:bold}li button{font-size:14px;min-height:32px;min-width:32px}
    @media (min-width:700px){body{padding:24px}#transport{padding:16px}}
    """
}
