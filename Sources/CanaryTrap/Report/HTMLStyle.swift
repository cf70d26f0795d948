/// The inline style sheet of the HTML report: no external fonts, images or scripts.
enum HTMLStyle {
  static let css = """
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
    }
    """
}
