import Crypto
import Foundation

/// The HTML report's inline style and script, and the Content-Security-Policy that allows exactly
/// them (by SHA-256 hash) and nothing else: no outside fetch of any kind, no other script, no form
/// or frame. The report is one file that works offline.
enum HTMLAssets {
  static let style = """
    :root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--panel:#f6f8fa;
    --pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--err:#8250df;--err-bg:#fbefff;
    --skip:#6e7781;--skip-bg:#eaeef2;--int:#bc4c00;--int-bg:#fff1e5;--warn:#9a6700;--warn-bg:#fff8c5}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
    header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
    h1{font-size:20px;margin:0 0 6px}
    .run{color:var(--muted)}
    .banner{margin:10px 0 0;padding:8px 12px;border-radius:6px;background:var(--int-bg);color:var(--int);font-weight:600}
    .counts{display:flex;gap:8px;flex-wrap:wrap;margin-top:10px}
    .count{padding:4px 10px;border-radius:999px;font-weight:600;border:1px solid currentColor}
    .filters{display:flex;gap:14px;flex-wrap:wrap;align-items:center;padding:10px 24px;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--bg);z-index:2}
    .filters label{white-space:nowrap}
    .filters select,.filters input[type=search]{font:inherit;padding:3px 6px;border:1px solid var(--line);border-radius:6px}
    #shown{color:var(--muted);margin-left:auto}
    main{padding:12px 24px 40px}
    .scenario{border:1px solid var(--line);border-radius:8px;margin:10px 0;overflow:hidden}
    .scenario>details>summary{padding:10px 14px;cursor:pointer;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap;background:var(--panel)}
    .scenario .name{font-weight:600}
    .meta{color:var(--muted);font-size:12px}
    .tag{display:inline-block;padding:0 6px;margin-left:4px;border-radius:4px;background:var(--skip-bg);color:var(--fg)}
    .body{padding:10px 14px}
    .badge{display:inline-block;min-width:78px;text-align:center;padding:1px 8px;border-radius:4px;font-size:12px;font-weight:700;text-transform:uppercase}
    .badge.st-passed{background:var(--pass-bg);color:var(--pass)}.badge.st-failed{background:var(--fail-bg);color:var(--fail)}
    .badge.st-error{background:var(--err-bg);color:var(--err)}.badge.st-skipped,.badge.st-notrun{background:var(--skip-bg);color:var(--skip)}
    .badge.st-interrupted{background:var(--int-bg);color:var(--int)}.badge.st-warning{background:var(--warn-bg);color:var(--warn)}
    .count.st-passed{color:var(--pass)}.count.st-failed{color:var(--fail)}.count.st-error{color:var(--err)}
    .count.st-skipped{color:var(--skip)}.count.st-interrupted{color:var(--int)}.count.st-warning{color:var(--warn)}
    .story{margin:6px 0 10px;padding:8px 12px;border-left:4px solid var(--fail);background:var(--fail-bg);border-radius:4px}
    .story.st-error{border-color:var(--err);background:var(--err-bg)}
    .reason{color:var(--muted)}
    .omitted{margin:8px 0 0;padding:6px 10px;border-left:4px solid var(--warn);background:var(--warn-bg);color:var(--fg);border-radius:4px;font-size:13px}
    .note{margin:8px 0 0;color:var(--muted);font-size:12px}
    .exchange-line{padding:1px 0}
    .step .planned{padding:6px 4px}
    .graph{overflow:auto;margin:6px 0 12px;border:1px solid var(--line);border-radius:6px;background:#fff}
    svg.flow text{font:12px -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;fill:var(--fg)}
    svg.flow text.id{font-weight:600}
    svg.flow .node rect{stroke-width:2}
    svg.flow .node.st-passed rect{fill:var(--pass-bg);stroke:var(--pass)}
    svg.flow .node.st-failed rect{fill:var(--fail-bg);stroke:var(--fail);stroke-width:3}
    svg.flow .node.st-error rect{fill:var(--err-bg);stroke:var(--err);stroke-width:3}
    svg.flow .node.st-skipped rect{fill:var(--skip-bg);stroke:var(--skip);stroke-dasharray:5 3}
    svg.flow .node.st-interrupted rect{fill:var(--int-bg);stroke:var(--int)}
    svg.flow .node.st-warning rect{fill:var(--warn-bg);stroke:var(--warn)}
    svg.flow .node.st-notrun rect{fill:#fff;stroke:var(--line);stroke-dasharray:2 3}
    svg.flow .edge{fill:none;stroke:#8c959f;stroke-width:1.5}
    svg.flow .edge.always{stroke-dasharray:2 4}
    svg.flow .cleanup{fill:none;stroke:var(--line);stroke-dasharray:6 4}
    svg.flow .cleanup-title{fill:var(--muted)}
    svg.flow a:hover rect{filter:brightness(.95)}
    ol.steps{list-style:none;margin:0;padding:0}
    .step{border-top:1px solid var(--line)}
    .step>details>summary{padding:6px 4px;cursor:pointer}
    .step .inner{padding:4px 8px 10px 26px}
    .step:target{background:#fff8c5}
    table{border-collapse:collapse;margin:6px 0;width:100%}
    th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
    th{background:var(--panel);font-weight:600;white-space:nowrap}
    td.expected{background:var(--pass-bg)}td.actual{background:var(--fail-bg)}
    pre{margin:4px 0;padding:8px;background:var(--panel);border-radius:6px;overflow:auto;max-height:420px;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-all}
    code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
    h4{margin:10px 0 4px;font-size:13px}
    .hidden{display:none}
    section.plan{margin:12px 24px}section.plan h2{font-size:16px;margin:8px 0}
    section.plan .variant{color:var(--muted);font-size:12px;white-space:nowrap}
    .badge.st-review{background:#ede7f6;color:#5e35b1}
    footer{padding:12px 24px;color:var(--muted);font-size:12px}
    """

  static let script = """
    (function(){
    'use strict';
    var sections=Array.prototype.slice.call(document.querySelectorAll('section.scenario'));
    var boxes=Array.prototype.slice.call(document.querySelectorAll('input[data-status]'));
    var tag=document.getElementById('tag'),tenant=document.getElementById('tenant'),search=document.getElementById('search');
    var shown=document.getElementById('shown');
    function apply(){
      var statuses={};boxes.forEach(function(b){statuses[b.getAttribute('data-status')]=b.checked;});
      var t=tag.value,n=tenant.value,q=search.value.trim().toLowerCase(),count=0;
      sections.forEach(function(s){
        var ok=statuses[s.getAttribute('data-status')]!==false;
        if(ok&&t){ok=(' '+s.getAttribute('data-tags')+' ').indexOf(' '+t+' ')>=0;}
        if(ok&&n){ok=s.getAttribute('data-tenant')===n;}
        if(ok&&q){ok=s.getAttribute('data-search').indexOf(q)>=0;}
        s.classList.toggle('hidden',!ok);if(ok){count++;}
      });
      shown.textContent='Showing '+count+' of '+sections.length+' scenarios';
    }
    boxes.forEach(function(b){b.addEventListener('change',apply);});
    [tag,tenant].forEach(function(e){e.addEventListener('change',apply);});
    search.addEventListener('input',apply);
    function openAll(open){sections.forEach(function(s){var d=s.querySelector('details');if(d){d.open=open;}});}
    document.getElementById('expand').addEventListener('click',function(){openAll(true);});
    document.getElementById('collapse').addEventListener('click',function(){openAll(false);});
    function reveal(){
      var target=location.hash?document.getElementById(location.hash.slice(1)):null;
      for(var e=target;e;e=e.parentElement){if(e.tagName==='DETAILS'){e.open=true;}}
      var own=target?target.querySelector('details'):null;if(own){own.open=true;}
    }
    window.addEventListener('hashchange',reveal);
    apply();reveal();
    var drawn=0;
    Array.prototype.slice.call(document.querySelectorAll('svg.flow')).forEach(function(g){
      var r=g.getBoundingClientRect();
      var seen=typeof g.checkVisibility==='function'?g.checkVisibility({visibilityProperty:true,opacityProperty:true}):true;
      if(seen&&r.width>0&&r.height>0){drawn++;}
    });
    document.documentElement.setAttribute('data-graphs-drawn',String(drawn));
    document.documentElement.setAttribute('data-ready','true');
    })();
    """

  /// `default-src 'none'`, with the style and script above allowed by their hashes.
  static var contentSecurityPolicy: String {
    "default-src 'none'; style-src '\(hash(style))'; script-src '\(hash(script))'; img-src data:; "
      + "base-uri 'none'; form-action 'none'"
  }

  static func hash(_ text: String) -> String {
    "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
  }
}
