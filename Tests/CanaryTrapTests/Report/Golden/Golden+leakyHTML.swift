// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let leakyHTML = ##"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="canarytrap-verdict" content="leaky">
<meta name="canarytrap-findings" content="3">
<meta name="canarytrap-problems" content="2">
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
.location { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12.5px; font-weight: 400; white-space: nowrap; position: sticky; left: 0;
  background: #fff; z-index: 1; box-shadow: 1px 0 0 var(--line); }
.location wbr { display: none; }
thead th.location { background: #eef0f3; font-weight: 600; z-index: 2; }
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
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
details > summary { cursor: pointer; }
details.section > summary { margin: 28px 0 8px; }
details.section > summary h2 { display: inline; margin: 0; }
.count { color: var(--muted); font-weight: 400; font-size: 12.5px; }
form.filters { display: grid; gap: 6px; margin: 0 0 12px; }
form.filters fieldset { border: 1px solid var(--line); border-radius: 8px; background: #fff;
  margin: 0; padding: 4px 10px 6px; display: flex; flex-wrap: wrap; gap: 4px 6px;
  max-height: 96px; overflow-y: auto; }
form.filters legend { font-weight: 600; font-size: 12px; color: var(--muted); padding: 0 4px; }
form.filters label { display: inline-flex; align-items: center; gap: 4px; padding: 1px 8px;
  border: 1px solid var(--line); border-radius: 12px; font-size: 12.5px; cursor: pointer;
  overflow-wrap: anywhere; }
form.filters label:has(input:checked) { background: #1f2328; color: #fff; border-color: #1f2328; }
form.filters label:has(input:checked) .count { color: #d0d7de; }
form.filters input { margin: 0; }
details.family-group { background: #fff; border: 1px solid var(--line); border-radius: 8px;
  margin: 0 0 10px; padding: 6px 12px; }
details.family-group > summary { font-weight: 600; padding: 4px 0; overflow-wrap: anywhere; }
details.sink-group { margin: 4px 0 6px 12px; }
details.sink-group > summary { padding: 2px 0; overflow-wrap: anywhere; }
details.sink-group ol.findings { margin: 6px 0 0; }
.value, .shape, .site { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px;
  background: #eef0f3; color: #1f2328; }
.value { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.site code { font-size: 12px; }
code.where { font-weight: 600; }
pre.excerpt mark { background: #ffd54f; color: #1f2328; border-radius: 2px; padding: 0 1px;
  font-weight: 700; }
.matrix-groups { display: grid; grid-template-columns: minmax(0, 1fr); gap: 6px; }
details.matrix-family { background: #fff; border: 1px solid var(--line); border-radius: 8px;
  min-width: 0; }
.per-source { display: block; margin: 1px 0 0 1.2em; }
details.matrix-family > summary { padding: 6px 10px; overflow-wrap: anywhere; }
details.matrix-family[open] > summary { border-bottom: 1px solid var(--line); }
details.matrix-family .scroll { border: 0; border-radius: 0 0 8px 8px; }
details.matrix-family .family-rest { margin: 4px 10px 6px; }
.tally { display: inline-block; min-width: 7.5em; font-weight: 600; font-variant-numeric: tabular-nums; }
.tally.leaked { color: var(--leak); }
.tally.none { color: var(--ok); }
.tally-warn { color: var(--warn); font-weight: 600; }
code.family { font-weight: 600; }
.phone-only { display: none; }
@media (max-width: 640px) {
  body { padding: 12px 10px 32px; }
  h1 { font-size: 18px; }
  .verdict { font-size: 15px; padding: 10px 12px; }
  .location { white-space: normal; overflow-wrap: break-word; min-width: 8em; max-width: 58vw; }
  td.cell { min-width: 56px; padding: 4px 6px; }
  th, td { padding: 4px 6px; }
  .delivery { display: none; }
  .phone-only { display: inline-block; margin-left: 4px; }
  .per-source, .matrix-family .family-prefix { display: none; }
  .location wbr { display: inline; }
  .tally { min-width: 0; }
  details.matrix-family > summary { padding: 6px 8px; }
  details.sink-group { margin-left: 4px; }
  ol.findings li { padding: 8px 10px; }
  form.filters fieldset { max-height: 72px; }
}body:has(#fs-0:checked) .sink-group:not(.s-0), body:has(#fs-0:checked) .family-group:not(:has(.s-0)) { display: none; }
body:has(#fs-1:checked) .sink-group:not(.s-1), body:has(#fs-1:checked) .family-group:not(:has(.s-1)) { display: none; }
body:has(#fe-0:checked) .finding:not(.e-0), body:has(#fe-0:checked) .sink-group:not(:has(.e-0)), body:has(#fe-0:checked) .family-group:not(:has(.e-0)) { display: none; }
body:has(#fe-1:checked) .finding:not(.e-1), body:has(#fe-1:checked) .sink-group:not(:has(.e-1)), body:has(#fe-1:checked) .family-group:not(:has(.e-1)) { display: none; }
body:has(#fe-2:checked) .finding:not(.e-2), body:has(#fe-2:checked) .sink-group:not(:has(.e-2)), body:has(#fe-2:checked) .family-group:not(:has(.e-2)) { display: none; }
body:has(#ff-0:checked) .family-group:not(.f-0) { display: none; }
body:has(#ff-1:checked) .family-group:not(.f-1) { display: none; }
</style>
</head>
<body>
<h1>CanaryTrap report</h1>
<p class="subtitle">SignInLeakTests.signIn() &middot; <code>AppTests/SignInLeakTests.swift:12:4</code></p>
<div class="verdict verdict-leaky">LEAKY: 3 leaks at 2 locations</div>
<details class="section" open>
<summary><h2>Planted locations &times; sources</h2> <span class="count">4 locations, 2 leaked, 3 sources, 1 undelivered</span></summary>
<div class="scroll">
<table class="matrix">
<thead><tr><th class="location">Location</th><th class="delivery">Delivery</th>
<th>app<wbr>.log</th>
<th>stdout</th>
<th>stderr <span class="badge">silent</span></th>
</tr></thead>
<tbody>
<tr><th scope="row" class="location">request<wbr>.header<wbr>[X-Session]</th><td class="delivery delivered">delivered</td><td class="cell leak">base64</td><td class="cell leak">raw</td><td class="cell unheard">?</td></tr>
<tr><th scope="row" class="location">request<wbr>.body<wbr>.json<wbr>[user<wbr>.password]</th><td class="delivery delivered">delivered</td><td class="cell leak">percent</td><td class="cell none">&ndash;</td><td class="cell unheard">?</td></tr>
<tr><th scope="row" class="location">response<wbr>.cookie<wbr>[sid] <span class="badge phone-only">undelivered</span></th><td class="delivery undelivered">undelivered</td><td class="cell none">&ndash;</td><td class="cell none">&ndash;</td><td class="cell unheard">?</td></tr>
<tr><th scope="row" class="location">request<wbr>.url<wbr>.query<wbr>[sig]</th><td class="delivery delivered">delivered</td><td class="cell none">&ndash;</td><td class="cell none">&ndash;</td><td class="cell unheard">?</td></tr>
</tbody>
</table>
</div>
<p class="legend">Cells:<span style="background:#c62828"></span>leaked (encodings named)<span style="background:#edf7ee;border:1px solid #2e7d32"></span>nothing found<span style="background:#eceff1;border:1px solid #9aa0a6"></span>source heard nothing</p>
</details>
<h2 id="findings">Findings (3)</h2>
<form class="filters" aria-label="Filter findings">
<fieldset><legend>Sink</legend><label><input type="radio" name="fs" id="fs-all" checked> all</label><label><input type="radio" name="fs" id="fs-0"> app.log <span class="count">2</span></label><label><input type="radio" name="fs" id="fs-1"> stdout <span class="count">1</span></label></fieldset>
<fieldset><legend>Encoding</legend><label><input type="radio" name="fe" id="fe-all" checked> all</label><label><input type="radio" name="fe" id="fe-0"> base64 <span class="count">1</span></label><label><input type="radio" name="fe" id="fe-1"> percent <span class="count">1</span></label><label><input type="radio" name="fe" id="fe-2"> raw <span class="count">1</span></label></fieldset>
<fieldset><legend>Location</legend><label><input type="radio" name="ff" id="ff-all" checked> all</label><label><input type="radio" name="ff" id="ff-0"> request.header <span class="count">2</span></label><label><input type="radio" name="ff" id="ff-1"> request.body.json <span class="count">1</span></label></fieldset>
</form>
<div class="groups">
<details class="family-group f-0" open><summary><code>request.header</code> <span class="count">2 findings in 2 sinks</span></summary>
<details class="sink-group s-0 e-0" open><summary>into <code>app.log</code> <span class="count">1 finding</span></summary><ol class="findings">
<li class="finding e-0"><div class="finding-head"><code class="where">request.header[X-Session]</code> <span class="encoding">base64</span> <span class="position">line 3, column 17</span> <span class="value" title="canary value, masked">cnry…01 (20 chars)</span> <span class="shape">token</span></div><pre class="excerpt">auth=<mark>Y25yeUZJWEVEc2Vzc2lvbjAwMD</mark>E= user=42</pre></li>
</ol>
</details>
<details class="sink-group s-1 e-2" open><summary>into <code>stdout</code> <span class="count">1 finding</span></summary><ol class="findings">
<li class="finding e-2"><div class="finding-head"><code class="where">request.header[X-Session]</code> <span class="encoding">raw</span> <span class="position">line 1, column 1</span> <span class="value" title="canary value, masked">cnry…01 (20 chars)</span> <span class="shape">token</span></div><pre class="excerpt"><mark>cnryFIXEDsession0001</mark> sent</pre></li>
</ol>
</details>
</details>
<details class="family-group f-1" open><summary><code>request.body.json</code> <span class="count">1 finding in 1 sink</span></summary>
<details class="sink-group s-0 e-1" open><summary>into <code>app.log</code> <span class="count">1 finding</span></summary><ol class="findings">
<li class="finding e-1"><div class="finding-head"><code class="where">request.body.json[user.password]</code> <span class="encoding">percent</span> <span class="position">line 5, column 9</span> <span class="value" title="canary value, masked">cnry…!&amp; (19 chars)</span> <span class="shape">password</span></div><pre class="excerpt">body: pw=<mark>cnryFIXEDpass0002%21%26</mark></pre></li>
</ol>
</details>
</details>
</div>
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
