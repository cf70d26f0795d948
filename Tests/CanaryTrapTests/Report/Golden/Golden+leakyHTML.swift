// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let leakyHTML = ##"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CanaryTrap: SignInLeakTests.signIn()</title>
<style>
:root { color-scheme: light; --leak: #c62828; --leak-bg: #fdecea; --ok: #2e7d32; --ok-bg: #edf7ee;
  --warn: #a15c00; --warn-bg: #fff4e0; --muted: #6b7280; --line: #d9dde3; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; font: 14px/1.45 -apple-system, "Segoe UI", Roboto,
  "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #f6f7f9; }
h1 { font-size: 20px; margin: 0 0 2px; }
h2 { font-size: 16px; margin: 28px 0 8px; }
.subtitle { color: var(--muted); margin: 0 0 16px; overflow-wrap: anywhere; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.verdict { padding: 14px 18px; border-radius: 8px; font-size: 18px; font-weight: 700;
  border: 2px solid; overflow-wrap: anywhere; }
.verdict-leaky { color: var(--leak); background: var(--leak-bg); border-color: var(--leak); }
.verdict-clean { color: var(--ok); background: var(--ok-bg); border-color: var(--ok); }
.verdict-inconclusive { color: var(--warn); background: var(--warn-bg); border-color: var(--warn); }
.scroll { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 6px 10px; text-align: left;
  vertical-align: top; }
th { background: #eef0f3; font-weight: 600; white-space: nowrap; }
td.location { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12.5px; white-space: nowrap; position: sticky; left: 0; background: #fff; }
table.matrix th:nth-child(2), table.matrix td:nth-child(2) { width: 1%; white-space: nowrap; }
td.cell { text-align: center; min-width: 90px; border-left: 2px solid #fff; }
td.leak { background: var(--leak); color: #fff; font-weight: 600; }
td.none { background: var(--ok-bg); color: var(--ok); }
td.unheard { background: #eceff1; color: var(--muted); }
td.delivered { color: var(--ok); }
td.undelivered { color: var(--warn); background: var(--warn-bg); font-weight: 600; }
td.unchecked { color: var(--muted); }
.badge { display: inline-block; margin-left: 4px; padding: 0 6px; border-radius: 9px;
  font-size: 11px; font-weight: 600; background: var(--warn-bg); color: var(--warn); }
.legend { color: var(--muted); font-size: 12.5px; margin: 6px 0 0; }
.legend span { display: inline-block; width: 12px; height: 12px; border-radius: 2px;
  vertical-align: -2px; margin: 0 4px 0 12px; }
ol.findings { padding-left: 0; list-style: none; counter-reset: finding; }
ol.findings li { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--leak);
  border-radius: 6px; padding: 10px 14px; margin: 0 0 10px; }
.finding-head { overflow-wrap: anywhere; }
.encoding { display: inline-block; padding: 0 7px; border-radius: 9px; background: var(--leak-bg);
  color: var(--leak); font-weight: 600; font-size: 12px; }
.position { color: var(--muted); }
pre.excerpt { margin: 8px 0 0; padding: 8px 10px; background: #1f2328; color: #f6f8fa;
  border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
ul.plain { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 0;
  padding: 10px 14px 10px 32px; }
ul.plain li { margin: 2px 0; overflow-wrap: anywhere; }
.problem { color: var(--warn); font-weight: 600; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }</style>
</head>
<body>
<h1>CanaryTrap report</h1>
<p class="subtitle">SignInLeakTests.signIn() &middot; <code>AppTests/SignInLeakTests.swift:12:4</code></p>
<div class="verdict verdict-leaky">LEAKY: 3 leaks at 2 locations</div>
<h2>Planted locations &times; sources</h2>
<div class="scroll">
<table class="matrix">
<thead><tr><th>Location</th><th>Delivery</th>
<th>app.log</th>
<th>stdout</th>
<th>stderr <span class="badge">silent</span></th>
</tr></thead>
<tbody>
<tr><td class="location">request.header[X-Session]</td><td class="delivered">delivered</td><td class="cell leak">base64</td><td class="cell leak">raw</td><td class="cell unheard">?</td></tr>
<tr><td class="location">request.body.json[user.password]</td><td class="delivered">delivered</td><td class="cell leak">percent</td><td class="cell none">&ndash;</td><td class="cell unheard">?</td></tr>
<tr><td class="location">response.cookie[sid]</td><td class="undelivered">undelivered</td><td class="cell none">&ndash;</td><td class="cell none">&ndash;</td><td class="cell unheard">?</td></tr>
<tr><td class="location">request.url.query[sig]</td><td class="delivered">delivered</td><td class="cell none">&ndash;</td><td class="cell none">&ndash;</td><td class="cell unheard">?</td></tr>
</tbody>
</table>
</div>
<p class="legend">Cells:<span style="background:#c62828"></span>leaked (encodings named)<span style="background:#edf7ee;border:1px solid #2e7d32"></span>nothing found<span style="background:#eceff1;border:1px solid #9aa0a6"></span>source heard nothing</p>
<h2>Findings (3)</h2>
<ol class="findings">
<li><div class="finding-head"><code>request.header[X-Session]</code> leaked into <code>app.log</code> <span class="encoding">base64</span> <span class="position">line 3, column 17</span></div><pre class="excerpt">auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42</pre></li>
<li><div class="finding-head"><code>request.body.json[user.password]</code> leaked into <code>app.log</code> <span class="encoding">percent</span> <span class="position">line 5, column 9</span></div><pre class="excerpt">body: pw=cnryFIXEDpass0002%21%26</pre></li>
<li><div class="finding-head"><code>request.header[X-Session]</code> leaked into <code>stdout</code> <span class="encoding">raw</span> <span class="position">line 1, column 1</span></div><pre class="excerpt">cnryFIXEDsession0001 sent</pre></li>
</ol>
<h2>Undelivered canaries (1)</h2>
<ul class="plain">
<li><code>response.cookie[sid]</code>: <span class="problem">the app never received the Set-Cookie header</span></li>
</ul>
<h2>Sources (3)</h2>
<ul class="plain">
<li><code>app.log</code>: 512 bytes</li>
<li><code>stdout</code>: 128 bytes</li>
<li><code>stderr</code>: 0 bytes, <span class="problem">silent: no bytes written</span></li>
</ul>
<footer>Generated by CanaryTrap.</footer>
</body>
</html>

"""##
}
