extension Dashboard {
    /// The page's style: system fonts only, a table layout that scrolls sideways on a phone, and
    /// forms that fall to one column under 640px.
    static let style = #"""
        :root { --bg: #f5f6f8; --card: #fff; --ink: #1d2330; --muted: #667085; --line: #e3e6eb; --accent: #2454d6;
                --ok: #12805c; --warn: #b25e09; --bad: #c0262d; --info: #1f6fb2; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; } /* also for .badge, .token-form and others with their own display */
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--ink);
               font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
        pre { white-space: pre-wrap; word-break: break-all; margin: 4px 0 0; background: #f0f2f5; padding: 6px 8px; border-radius: 4px; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        h1 { font-size: 20px; margin: 4px 0 12px; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        h2 { font-size: 15px; margin: 0 0 10px; }
        .muted { color: var(--muted); }
        .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        /* The header: the brand and the navigation, then the clock on a row of its own. Its height
           does not depend on what the clock says (the times keep a fixed width), and on a phone
           it is two short lines: the navigation scrolls sideways, the advance controls wait
           behind a toggle (#clock-toggle). */
        .top { background: #151b2c; color: #fff; padding: 8px 16px; display: flex; flex-wrap: wrap; gap: 6px 24px; align-items: center; }
        .brand { font-weight: 600; font-size: 16px; white-space: nowrap; }
        .logo { display: inline-block; width: 22px; height: 22px; border-radius: 5px; background: var(--accent); text-align: center; \#
        line-height: 22px; }
        .tag { font-size: 11px; font-weight: 500; background: #f0b429; color: #151b2c; border-radius: 3px; padding: 1px 5px; margin-left: 4px; }
        .nav { position: relative; display: flex; flex-wrap: wrap; gap: 4px; }
        .nav a { color: #cfd6e6; padding: 6px 10px; border-radius: 4px; white-space: nowrap; }
        .nav a.active { background: #2b3550; color: #fff; }
        .clock { flex: 1 0 100%; display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; justify-content: space-between;
                 border-top: 1px solid #2b3550; padding-top: 6px; }
        .clock .muted { color: #9aa5bd; }
        .clock-read { display: flex; flex-wrap: wrap; gap: 0 16px; line-height: 1.3; white-space: nowrap; }
        .clock-time { display: inline-block; width: 24ch; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
        .clock-read strong.clock-time { color: #fff; }
        #clock-mode { display: inline-block; min-width: 8ch; } /* "(manual)", empty until read */
        .clock-form, .clock-more { display: flex; flex-wrap: wrap; gap: 4px; }
        .clock-form input { width: 70px; }
        .clock-toggle { display: none; }
        button { font: inherit; border: 1px solid #c6ccd6; background: #fff; color: var(--ink); border-radius: 4px; padding: 5px 10px; \#
        cursor: pointer; min-height: 32px; }
        button:hover:not(:disabled) { border-color: var(--accent); }
        button:disabled { opacity: .45; cursor: not-allowed; }
        button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
        button.danger:not(:disabled) { color: var(--bad); border-color: #e7b4b6; }
        input, select { font: inherit; border: 1px solid #c6ccd6; border-radius: 4px; padding: 5px 7px; background: #fff; color: var(--ink); \#
        min-height: 32px; max-width: 100%; }
        main { padding: 16px; max-width: 1200px; margin: 0 auto; }
        footer { padding: 8px 16px 24px; text-align: center; font-size: 12px; }
        .aside { font-size: 12px; font-weight: 400; margin-left: 8px; white-space: nowrap; }
        h3 { font-size: 13px; margin: 8px 0 6px; color: var(--muted); }
        .missing { padding: 12px 14px; border-radius: 6px; background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--bad); \#
        margin: 0 0 14px; }
        .decided { margin: -4px 0 12px; color: var(--muted); }
        .decided .badge { margin: 0 4px; }
        .decided span:last-child { color: var(--ink); }
        .notice { margin: 10px 16px 0; padding: 8px 12px; border-radius: 4px; background: #fdecec; color: var(--bad); border: 1px solid #f3c2c4; }
        .notice.ok { background: #e7f6ef; color: var(--ok); border-color: #b5e2cd; }
        .token-form { margin: 10px 16px 0; padding: 10px 12px; border-radius: 4px; background: #fff8e5; border: 1px solid #f0d9a0; display: flex; \#
        flex-wrap: wrap; gap: 8px; align-items: center; }
        .token-form label { flex-basis: 100%; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin-bottom: 14px; }
        .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 0 14px; }
        .filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin-bottom: 10px; }
        .filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
        .table-wrap { overflow-x: auto; -webkit-overflow-scrolling: touch; background: var(--card); border: 1px solid var(--line); \#
        border-radius: 6px; }
        .card .table-wrap { border: 0; }
        .table-wrap + .card { margin-top: 14px; }
        table.list { width: 100%; border-collapse: collapse; }
        .list th, .list td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--line); white-space: nowrap; vertical-align: top; }
        .list th { font-size: 12px; color: var(--muted); font-weight: 600; background: #fafbfc; }
        .list tbody tr:last-child td { border-bottom: 0; }
        .list tbody tr.link { cursor: pointer; }
        .list tbody tr.link:hover, .list tbody tr.selected { background: #f1f5ff; }
        .num { text-align: right !important; font-variant-numeric: tabular-nums; }
        .show-narrow { display: none; } /* what a phone shows in place of a hidden column */
        .empty { color: var(--muted); padding: 8px 0; margin: 0; }
        .badge { display: inline-block; font-size: 11.5px; font-weight: 600; letter-spacing: .02em; padding: 2px 7px; border-radius: 10px; \#
        background: #eef0f3; color: #444c5c; white-space: nowrap; }
        .badge.PENDING { background: #fff4e0; color: var(--warn); }
        .badge.ON_HOLD { background: #efe9fb; color: #6b3fc2; }
        .badge.DELIVERED { background: #e4f0fb; color: var(--info); }
        .badge.COMPLETED { background: #e1f5ec; color: var(--ok); }
        .badge.REJECTED { background: #fde7e8; color: var(--bad); }
        .badge.CANCELLED { background: #eceef1; color: #555e6e; }
        .badge.returned { background: #fde7e8; color: var(--bad); font-weight: 500; }
        .badge.delivered { background: #e1f5ec; color: var(--ok); }
        .badge.pending { background: #fff4e0; color: var(--warn); }
        .badge.failed { background: #fde7e8; color: var(--bad); }
        .badge.STAGED, .badge.AWAITING_DETAILS { background: #fff4e0; color: var(--warn); }
        .badge.EXPIRED { background: #eceef1; color: #555e6e; }
        /* The sandbox's status after an API's own word for it: muted, outlined. */
        .badge.sandbox { background: transparent; color: var(--muted); box-shadow: inset 0 0 0 1px #d5d9e0; font-weight: 500; }
        .actions { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
        .actions .sep { color: var(--muted); margin-left: 8px; }
        .reject-group { display: inline-flex; gap: 4px; }
        .reject-group input { width: 80px; }
        dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0; }
        dl.kv dt { color: var(--muted); }
        dl.kv dd { margin: 0; word-break: break-all; }
        .webhook { border-top: 1px solid var(--line); padding: 8px 0; }
        .webhook:first-child { border-top: 0; padding-top: 0; }
        .webhook-head .mono { overflow-wrap: anywhere; }
        .webhook-head { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; }
        .webhook-buttons { display: inline-flex; flex-wrap: wrap; gap: 4px; }
        .attempts { margin: 6px 0 0; padding: 0; list-style: none; } /* each says its own number */
        .attempts li { margin: 4px 0; padding-left: 10px; border-left: 2px solid var(--line); }
        .attempts li[data-chaos] { border-left-color: #c2410c; }
        .attempt-head { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
        .attempt-number { font-weight: 600; }
        .chaos-summary { display: block; font-size: 12.5px; }
        .badge.chaos { background: #ffedd5; color: #c2410c; }
        .badge.retry, .badge.manual { background: #eef0f3; color: #444c5c; font-weight: 500; }
        .badge.http-2xx { background: #e1f5ec; color: var(--ok); }
        .badge.http-3xx { background: #e4f0fb; color: var(--info); }
        .badge.http-4xx { background: #fff4e0; color: var(--warn); }
        .badge.http-5xx, .badge.why { background: #fde7e8; color: var(--bad); }
        .list td.text { white-space: normal; overflow-wrap: anywhere; min-width: 10ch; }
        .list td.path { white-space: normal; overflow-wrap: anywhere; }
        .diagnosis { border-left: 4px solid var(--bad); background: #fdf3f3; padding: 8px 12px; border-radius: 4px; margin-bottom: 10px; }
        .diagnosis p { margin: 0 0 6px; }
        .diagnosis-head strong { font-size: 15px; }
        .diagnosis dl.kv dd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
        .request h2 { display: flex; flex-direction: row-reverse; justify-content: space-between; gap: 8px; overflow-wrap: anywhere; }
        .form { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 10px 14px; }
        .form label { display: flex; flex-direction: column; gap: 3px; font-size: 12px; color: var(--muted); }
        .form .wide { grid-column: 1 / -1; }
        .form-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; }
        /* Narrower than the brand and every link: the logo alone, the links on one line that
           scrolls sideways (faded at the right while more is there: .more), the clock's reading
           on two lines. */
        @media (max-width: 1100px) {
            .brand-name { display: none; }
            .top { flex-wrap: wrap; }
            .nav { flex: 1 1 0; min-width: 0; flex-wrap: nowrap; overflow-x: auto; scrollbar-width: none; }
            .nav.more { -webkit-mask-image: linear-gradient(to right, #000 calc(100% - 28px), transparent);
                        mask-image: linear-gradient(to right, #000 calc(100% - 28px), transparent); }
            .nav::-webkit-scrollbar { display: none; }
            .clock-read { flex-direction: column; gap: 0; line-height: 1.25; }
        }
        @media (max-width: 900px) {
            .form { grid-template-columns: 1fr 1fr; }
        }
        /* A phone: the advance controls wait behind the toggle, under the reading when open. */
        @media (max-width: 700px) {
            .top { padding: 4px 8px 6px; gap: 4px 8px; }
            .wide-only { display: none; }
            .nav a { padding: 5px 8px; }
            .clock { padding-top: 4px; gap: 4px 6px; } /* one line from 375px; the buttons wrap under the reading below */
            .clock-read { font-size: 12px; margin-right: auto; }
            .clock-time { font-size: 12px; width: 24ch; }
            .clock-form { display: contents; }
            .clock-form button { padding: 4px 7px; white-space: nowrap; }
            .clock-more { display: none; order: 1; }
            .top.clock-open .clock-more { display: flex; flex-basis: 100%; }
            .clock-toggle { display: inline-block; }
            .clock-toggle[aria-expanded=true] { background: #2b3550; border-color: #2b3550; color: #fff; }
        }
        @media (max-width: 640px) {
            main { padding: 10px; }
            .notice, .token-form { margin: 8px 10px 0; }
            .grid, .form { grid-template-columns: 1fr; }
            .clock-form input { width: 60px; }
            .list th, .list td { padding: 6px 8px; }
            .hide-narrow, #cashouts-body .badge.sandbox { display: none; } /* the list keeps an API's own word */
            .show-narrow { display: block; }
            h1 { font-size: 18px; }
        }
        """#
}
