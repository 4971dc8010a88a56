"""Drives the web console in a real headless Chromium (Debian's, through Playwright) for
TestConsoleInBrowser: reads a JSON command on stdin, prints what the pages showed as JSON on stdout.

The command: {"url", "browser" (Chromium's path), "table" (one with a failed segment), "sql" (a
time-series query), "screenshots" (a directory, or "" for none), "user"/"password" (optional)}.
Playwright's own browser downloads are never used: the system Chromium is passed as
executable_path.
"""

import json
import sys
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

TIMEOUT_MS = 60_000

# Counts the chart canvas's non-transparent pixels (an expression whose value is a function).
PAINTED = """(() => {
    const canvas = document.querySelector('#chart canvas');
    if (!canvas) return 0;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    return painted;
})"""

# The console's own modules on shapes the node does not produce yet: the EXPLAIN ANALYZE view over
# a plan tree and a table (the EXPLAIN work lands separately; the view renders any JSON), and which
# results the chart takes for a time series.
MODULE_CHECKS = """async () => {
    const { renderExplain } = await import('/console/explain.js');
    const { timeSeries } = await import('/console/chart.js');
    const plan = renderExplain({
        operator: 'Aggregate', timeMs: 4,
        children: [{ operator: 'Scan', table: 'obs.metrics', files: 3, children: [] }],
        phases: [{ phase: 'prune', ms: 1 }, { phase: 'fetch', ms: 3 }],
        text: 'line one\\nline two',
    });
    const series = (types, rows, names = ['t', 'v']) =>
        timeSeries({ dataSchema: { columnNames: names, columnDataTypes: types }, rows });
    return {
        explainText: plan.textContent,
        explainTableRows: plan.querySelectorAll('table tbody tr').length,
        explainDetails: [...plan.querySelectorAll('summary')].map(s => s.textContent),
        explainPre: plan.querySelectorAll('pre').length,
        millis: series(['LONG', 'DOUBLE'], [[1754226011000, 1.5], [1754226010000, 2]])?.data,
        timestamps: series(['TIMESTAMP', 'LONG'], [['2025-08-03 10:00:01.0', 2], ['2025-08-03 10:00:00.0', 1]])?.data,
        groups: series(['STRING', 'LONG'], [['a', 1], ['b', 2]]),
        counts: series(['LONG', 'LONG'], [[3, 1], [4, 2]], ['org_id', 'n']),
        oneRow: series(['LONG', 'DOUBLE'], [[1754226011000, 1.5]]),
        textValues: series(['LONG', 'STRING'], [[1754226011000, 'x'], [1754226012000, 'y']]),
    };
}"""


def main():
    command = json.load(sys.stdin)
    url = command["url"].rstrip("/")
    shots = Path(command["screenshots"]) if command.get("screenshots") else None
    seen = {"errors": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=command["browser"], headless=True, args=["--disable-gpu"]
        )
        options = {"viewport": {"width": 1280, "height": 900}}
        # Without credentials: with users configured the node answers the Basic challenge, which a
        # headless browser with no user to offer gives up on (net::ERR_INVALID_AUTH_CREDENTIALS).
        anonymous = browser.new_context(**options)
        try:
            seen["withoutUser"] = f"HTTP {anonymous.new_page().goto(url + '/').status}"
        except PlaywrightError as error:
            seen["withoutUser"] = str(error).splitlines()[0]
        anonymous.close()
        if command.get("user"):
            options["http_credentials"] = {
                "username": command["user"],
                "password": command["password"],
            }
        page = browser.new_context(**options).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        # Any script error or failed console call fails the test (the Java side asserts none).
        page.on("pageerror", lambda error: seen["errors"].append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda message: seen["errors"].append(f"console.{message.type}: {message.text}")
            if message.type == "error"
            else None,
        )

        # Tables: the card of the table with the failed segment, and its reason.
        page.goto(url + "/")
        card = page.locator(f'article[data-table="{command["table"]}"]')
        card.locator(".failure .reason").first.wait_for()
        seen["tables"] = page.locator("article[data-table]").evaluate_all(
            "cards => cards.map(card => card.dataset.table)"
        )
        seen["failedReasons"] = card.locator(".failure .reason").all_inner_texts()
        seen["failedFiles"] = card.locator(".failure .file").all_inner_texts()
        seen["failedCount"] = card.locator(".count-failed").inner_text()
        seen["state"] = card.locator(".badge").first.inner_text()
        seen["facts"] = card.locator("dd[data-fact]").evaluate_all(
            "facts => Object.fromEntries(facts.map(fact => [fact.dataset.fact, fact.textContent]))"
        )
        if shots:
            page.screenshot(path=str(shots / "console-tables.png"), full_page=True)

        # Query: run the time series in the editor; the grid, the statistics line and the chart.
        page.click('nav a[data-page="query"]')
        page.fill("#sql", command["sql"])
        page.click("#run")
        page.locator("#result-panel:not([hidden])").wait_for()
        page.locator("#chart-panel:not([hidden]) canvas").wait_for()
        seen["queryError"] = (
            page.locator("#query-error").inner_text()
            if page.locator("#query-error").is_visible()
            else ""
        )
        seen["columns"] = page.locator("#result thead th").evaluate_all(
            "cells => cells.map(cell => cell.firstChild.textContent)"
        )
        seen["rows"] = page.locator("#result tbody tr").evaluate_all(
            "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))"
        )
        seen["stats"] = page.locator("#query-stats").inner_text()
        seen["chartCaption"] = page.locator("#chart-caption").inner_text()
        # Drawn, not merely present: the canvas has painted pixels (uPlot paints on the next frame).
        page.wait_for_function(PAINTED + "() > 0")
        seen["chartPixels"] = page.evaluate(PAINTED + "()")
        seen["chartSeries"] = page.locator("#chart .u-legend .u-series").count()
        seen["explainShown"] = page.locator("#explain-panel").is_visible()
        if shots:
            page.screenshot(path=str(shots / "console-query.png"), full_page=True)
        seen["modules"] = page.evaluate(MODULE_CHECKS)
        # Nodes, after the query: this node's row, its cache in use.
        page.click('nav a[data-page="nodes"]')
        page.locator("tr[data-node]").first.wait_for()
        seen["nodes"] = page.locator("tr[data-node]").evaluate_all(
            "rows => rows.map(row => ({id: row.dataset.node,"
            " cells: [...row.cells].map(cell => cell.innerText)}))"
        )
        page.locator("#checks table").wait_for()
        if shots:
            page.screenshot(path=str(shots / "console-nodes.png"), full_page=True)

        browser.close()
    json.dump(seen, sys.stdout)


if __name__ == "__main__":
    main()
