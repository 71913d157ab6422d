/// The web remote's page: one static HTML file with its CSS (RemotePage+Style.swift)
/// and JavaScript (RemotePage+Script.swift), served from the binary at `/`. No framework, no
/// fetch but to gstplay itself. It reads the token from the URL's fragment (`#token=…`, never
/// sent in a request line) and speaks the `--json` protocol over `/ws`. Constants; any thread.
enum RemotePage {
    /// The whole page.
    static var html: String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>gstplay remote</title>
        <style>\(style)</style></head>
        <body>
        <header><h1 id="title">gstplay</h1><span id="state" class="badge">connecting</span></header>
        <p id="notice" hidden></p>
        <section id="transport">
          <div id="seekwrap"><input id="seek" type="range" min="0" max="1000" value="0" aria-label="position">
            <div id="preview" hidden><img id="previewimg" alt=""><span id="previewtime"></span></div></div>
          <div class="row"><span id="position">0:00</span><span id="duration">0:00</span></div>
          <div class="row buttons">
            <button id="prev" aria-label="previous">prev</button>
            <button id="playpause" aria-label="play or pause">play</button>
            <button id="next" aria-label="next">next</button>
            <button id="mute" aria-label="mute">mute</button>
          </div>
          <label>volume <input id="volume" type="range" min="0" max="100" value="100"></label>
          <label>rate <select id="rate"><option>0.5</option><option>0.75</option><option selected>1</option>
            <option>1.25</option><option>1.5</option><option>2</option></select></label>
        </section>
        <section id="tracks" hidden><h2>Tracks</h2>
          <label hidden>audio <select id="audio"></select></label>
          <label hidden>subtitles <select id="subtitle"></select></label></section>
        <section><h2>Queue</h2><ol id="queue"></ol></section>
        <script>\(script)</script>
        </body></html>
        """
    }
}
