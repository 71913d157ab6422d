extension RemotePage {
    /// The page's JavaScript: the token from `#token=`, the WebSocket with reconnect and backoff
    /// (0.5 s doubling to 8 s), events drawn as they come, commands as console lines. The seek
    /// preview follows the pointer but stays within the bar's width; a track selector shows only
    /// when the media has tracks of its kind, the Tracks section only when one does.
    static let script = #"""
    const $=id=>document.getElementById(id);
    const token=new URLSearchParams(location.hash.slice(1)).get('token')||'';
    let ws=null,backoff=500,duration=0,dragging=false,state='',nextId=1;
    const fmt=s=>{s=Math.max(0,Math.floor(s||0));const h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=String(s%60).padStart(2,'0');return h?h+':'+String(m).padStart(2,'0')+':'+x:m+':'+x};
    const controls=()=>document.querySelectorAll('button,select,input');
    function enable(on){controls().forEach(c=>c.disabled=!on)}
    function notice(text){$('notice').hidden=!text;$('notice').textContent=text||''}
    function send(command){if(ws&&ws.readyState===1)ws.send(JSON.stringify({command:command,request_id:nextId++}))}
    function setState(s){state=s;$('state').textContent=s;$('playpause').textContent=s==='playing'?'pause':'play'}
    function setPosition(p,d){if(d>0)duration=d;$('position').textContent=fmt(p);$('duration').textContent=fmt(duration);
      if(!dragging&&duration>0)$('seek').value=Math.round(1000*p/duration)}
    function setVolume(v,m){$('volume').value=Math.round(v);$('mute').textContent=m?'unmute':'mute'}
    function setQueue(items,current){const q=$('queue');q.textContent='';(items||[]).forEach((it,i)=>{const li=document.createElement('li');
      if(i===current)li.className='current';const name=document.createElement('span');name.textContent=it.title||decodeURIComponent((it.uri||'').split('/').pop());
      name.onclick=()=>send('jump '+i);const rm=document.createElement('button');rm.textContent='\u2715';rm.setAttribute('aria-label','remove');
      rm.onclick=()=>send('remove '+i);li.append(name,rm);q.append(li)});
      const cur=(items||[])[current];if(cur)$('title').textContent=cur.title||decodeURIComponent((cur.uri||'').split('/').pop())}
    function setTracks(tracks,selected){let any=false;for(const type of ['audio','subtitle']){const sel=$(type);sel.textContent='';
      if(type==='subtitle'){sel.append(new Option('off','none'))}
      const list=(tracks||[]).filter(t=>t.type===type);any=any||list.length>0;sel.parentElement.hidden=list.length===0;
      list.forEach(t=>sel.append(new Option((t.title||t.language_name||t.codec||type)+' #'+t.index,String(t.index))));
      const s=selected&&selected[type];sel.value=s===null||s===undefined?(type==='subtitle'?'none':''):String(s)}
      $('tracks').hidden=!any}
    function status(d){if(!d)return;if(d.state)setState(d.state);setPosition(d.position,d.duration);setVolume(d.volume,d.muted);
      if(d.rate)$('rate').value=String(d.rate);if(d.location)$('title').textContent=d.location.split('/').pop()}
    function onLine(m){
      if(m.event==='state')setState(m.to);else if(m.event==='position'||m.event==='seek-done')setPosition(m.position,m.duration);
      else if(m.event==='duration')setPosition(0,m.duration);else if(m.event==='volume')setVolume(m.volume,m.muted);
      else if(m.event==='rate')$('rate').value=String(m.rate);else if(m.event==='playlist')setQueue(m.items,m.current);
      else if(m.event==='tracks')setTracks(m.tracks,m.selected);else if(m.event==='uri'){send('status');send('playlist')}
      else if(m.data&&typeof m.data==='object'){if('state' in m.data)status(m.data);if(m.data.items)setQueue(m.data.items,m.data.current);
        if(m.data.tracks)setTracks(m.data.tracks,m.data.selected)}
      if(m.error&&m.error!=='success')notice(m.error)}
    function connect(){
      if(!token){enable(false);setState('no token');fetch('/api/status').then(r=>notice(r.status+(r.status===401?' unauthorized':'')+
        ': no token; open the URL gstplay printed (…/#token=…).')).catch(()=>notice('no token'));return}
      ws=new WebSocket((location.protocol==='https:'?'wss://':'ws://')+location.host+'/ws?token='+encodeURIComponent(token));
      ws.onopen=()=>{backoff=500;notice('');enable(true);send('status');send('playlist');send('tracks')};
      ws.onmessage=e=>{try{onLine(JSON.parse(e.data))}catch(x){}};
      ws.onclose=()=>{enable(false);setState('reconnecting');fetch('/api/status',{headers:{Authorization:'Bearer '+token}})
        .then(r=>{if(r.status===401){notice('401 unauthorized: the token is wrong (gstplay restarted? open the new URL).')}}).catch(()=>{});
        setTimeout(connect,backoff);backoff=Math.min(backoff*2,8000)}}
    $('playpause').onclick=()=>send(state==='playing'?'pause':'play');$('prev').onclick=()=>send('prev');$('next').onclick=()=>send('next');
    $('mute').onclick=()=>send('mute');$('volume').onchange=e=>send('volume '+e.target.value);$('rate').onchange=e=>send('rate '+e.target.value);
    $('audio').onchange=e=>send('track audio '+e.target.value);$('subtitle').onchange=e=>send('track subtitle '+e.target.value);
    const seek=$('seek');seek.oninput=()=>{dragging=true;$('position').textContent=fmt(duration*seek.value/1000)};
    seek.onchange=()=>{dragging=false;send('seek '+(seek.value/10).toFixed(1)+'%')};
    let hoverTimer=null,lastT=-1;
    seek.onmousemove=e=>{if(!duration)return;const r=seek.getBoundingClientRect(),f=Math.min(1,Math.max(0,(e.clientX-r.left)/r.width));
      const t=Math.round(duration*f),p=$('preview');p.hidden=false;$('previewtime').textContent=fmt(t);
      p.style.left=Math.max(0,Math.min(f*r.width-p.offsetWidth/2,r.width-p.offsetWidth))+'px';
      clearTimeout(hoverTimer);hoverTimer=setTimeout(()=>{if(t===lastT)return;lastT=t;
        fetch('/api/thumbnail.png?t='+t,{headers:{Authorization:'Bearer '+token}}).then(r=>r.ok?r.blob():null)
        .then(b=>{if(b){const u=$('previewimg').src;$('previewimg').src=URL.createObjectURL(b);if(u)URL.revokeObjectURL(u)}}).catch(()=>{})},120)};
    seek.onmouseleave=()=>{$('preview').hidden=true};
    enable(false);connect();
    """#
}
