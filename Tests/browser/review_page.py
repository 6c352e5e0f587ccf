#!/usr/bin/env python3
"""Opens a plist-migrate review page in headless Chromium (Selenium) and checks it against the
JSON report of the same run: no console errors; every group, count and filter agrees with the
report; keyboard-only navigation reaches every control; accepting groups and exporting gives a
decision file. Prints a JSON summary; exits 1 with the reason when a check fails, 77 when the
browser cannot start.

Usage: review_page.py PAGE REPORT [--accept-pass ID] [--decision OUT] [--screenshot PNG] [--download-dir DIR]
"""
import argparse, json, os, re, shutil, sys, time


def fail(message):
    print(json.dumps({"error": message}))
    sys.exit(1)


def expected_model(report):
    """What the page must show, worked out from the JSON report alone."""
    groups, attention = {}, []
    held, skipped, conflicts = {}, {}, {}
    for f in report["files"]:
        repo = f.get("repository")
        if f.get("error"):
            attention.append({"pass": f["error"].get("migration") or "", "repos": {repo}, "files": [f["path"]]})
        for d in f["diagnostics"]:
            # Identical conflicts (pass and message, line numbers aside) are one item.
            key = ("conflict", d.get("migration") or "", re.sub(r"line \d+", "line #", d["message"]))
            if key not in conflicts:
                conflicts[key] = {"pass": d.get("migration") or "", "repos": set(), "files": []}
                attention.append(conflicts[key])
            conflicts[key]["repos"].add(repo); conflicts[key]["files"].append(f["path"])
        for pid in f["heldBack"]:
            key = (pid, f["heldBackReasons"].get(pid, "held back"))
            if key not in held:
                held[key] = {"pass": pid, "repos": set(), "files": []}
                attention.append(held[key])
            held[key]["repos"].add(repo); held[key]["files"].append(f["path"])
        if f["status"] == "skipped" and f.get("skipReason") and f["skipReason"] != "no NSAppTransportSecurity":
            key = f["skipReason"]
            if key not in skipped:
                skipped[key] = {"pass": "", "repos": set(), "files": []}
                attention.append(skipped[key])
            skipped[key]["repos"].add(repo); skipped[key]["files"].append(f["path"])
        for p in f["passes"]:
            g = groups.setdefault(p["group"], {"pass": p["id"], "impact": p["impact"], "files": [], "edits": []})
            g["files"].append((f["path"], repo)); g["edits"].append(p["editCount"])
    return groups, attention


def counts(groups, attention, pass_id="", repo=None, impact="", path_query=""):
    shown, files, edits = 0, set(), 0
    for gid, g in groups.items():
        if pass_id and g["pass"] != pass_id: continue
        if impact and g["impact"] != impact: continue
        # A search that names the kind keeps all its files; one that names a path keeps the
        # files whose path holds it, and every count follows.
        whole = not path_query or path_query in gid.lower() or path_query in g["pass"].lower()
        kept = [(i, fr) for i, fr in enumerate(g["files"])
                if (repo is None or fr[1] == repo) and (whole or path_query in fr[0].lower())]
        if not kept: continue
        shown += 1
        for i, fr in kept:
            files.add(fr[0]); edits += g["edits"][i]
    items = 0
    for a in attention:
        if pass_id and a["pass"] != pass_id: continue
        if repo is not None and repo not in a["repos"]: continue
        if path_query and not any(path_query in p.lower() for p in a["files"]): continue
        items += 1
    return shown, len(files), edits, items


def ready(driver):
    """Waits for the page's script to have read its compressed part (a large page's kinds and
    file lists) and started; fails if it could not."""
    for _ in range(200):
        state = driver.execute_script("return document.documentElement.getAttribute('data-ready');")
        if state == "true": return
        if state == "failed": fail("the page could not read its compressed part: %s" % driver.find_element("id", "filter-status").text)
        time.sleep(0.05)
    fail("the page's script never said it was ready")


def axe(driver, script, without=(), sample=0):
    """axe-core's violations of the page as it is: none allowed. Its two duplicate-id rules
    compare every id with every other (7 of 17 s on the 10,000-file page); the same
    property, every id on the page unique, is checked here in one pass instead."""
    duplicates = driver.execute_script("""var seen = {}, twice = [];
        document.querySelectorAll('[id]').forEach(function (el) { if (seen[el.id]) { twice.push(el.id); } seen[el.id] = true; });
        return twice;""")
    if duplicates: fail("ids used more than once: %s" % duplicates[:5])
    driver.execute_script(open(script).read())
    # A page of 10,000 files takes axe-core a while on a loaded 2-core machine.
    driver.set_script_timeout(180)
    # `sample`: the page keeps only its first and last `sample` kinds for the audit, the last
    # step of a run (each kind is made by the same code from the page's data; axe-core took
    # 14 s over the 248 kinds the 10,000-file page had once).
    result = driver.execute_async_script("""var done = arguments[arguments.length - 1], sample = arguments[1];
        var rules = {'duplicate-id': {enabled: false}, 'duplicate-id-aria': {enabled: false}};
        arguments[0].forEach(function (rule) { rules[rule] = {enabled: false}; });
        if (sample) {
          var kinds = document.querySelectorAll('article.group');
          Array.prototype.forEach.call(kinds, function (a, i) { if (i >= sample && i < kinds.length - sample) { a.remove(); } });
          // The index's jump links to the kinds taken out: each was found to lead to its kind
          // before (the layout check), so axe-core's own look at them is left out.
          rules['skip-link'] = {enabled: false};
        }
        axe.run(document, {resultTypes: ['violations'], rules: rules})
          .then(function (r) { done(r.violations.map(function (v) { return v.id + ' ' + v.nodes.length; })); });""", list(without), sample)
    if result: fail("axe-core finds: %s" % result)
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page"); parser.add_argument("report")
    parser.add_argument("--accept-pass"); parser.add_argument("--decision"); parser.add_argument("--screenshot")
    parser.add_argument("--download-dir"); parser.add_argument("--search")
    parser.add_argument("--load-only", action="store_true")
    parser.add_argument("--decide", action="append", default=[],
                        help="PASS=accept|reject|undecided (* for every other pass): click each kind's radio, download the decision, and list the commands as copied")
    parser.add_argument("--commands", help="with --decide: write the page's commands, as their Copy buttons copy them, to this JSON file")
    parser.add_argument("--skip-keyboard", action="store_true", help="leave out tabbing through every control (a large page's hundreds)")
    parser.add_argument("--axe", help="axe.min.js (axe-core) to run at both widths")
    parser.add_argument("--axe-without", action="append", default=[],
                        help="an axe-core rule to leave out (a large page's colour contrast is that of the small pages' classes, each checked there)")
    parser.add_argument("--axe-sample", type=int, default=0,
                        help="audit the page with only the first and last N kinds (a large page's kinds are those of the small pages, made by the same code)")
    args = parser.parse_args()
    if args.axe_sample and not args.skip_keyboard: parser.error("--axe-sample removes kinds: it needs --skip-keyboard, which ends the run after the audit")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import Select
        from selenium.webdriver.common.action_chains import ActionChains
    except ImportError as error:
        print(json.dumps({"skip": "selenium is not installed: %s" % error})); sys.exit(77)
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"]:
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if args.download_dir:
        options.add_experimental_option("prefs", {"download.default_directory": os.path.abspath(args.download_dir),
                                                  "download.prompt_for_download": False})
    try:
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    except Exception as error:  # the browser cannot start here
        print(json.dumps({"skip": "Chromium could not start: %s" % str(error).splitlines()[0]})); sys.exit(77)
    summary = {"timings_ms": {}}
    last = [time.time()]

    def mark(phase):
        """How long each phase took (the suite's time is measured)."""
        now = time.time()
        summary["timings_ms"][phase] = int((now - last[0]) * 1000)
        last[0] = now
    try:
        started = time.time()
        driver.get("file://" + os.path.abspath(args.page))
        ready(driver)
        summary["load_ms"] = driver.execute_script(
            "var n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : null;")
        summary["wall_ms"] = int((time.time() - started) * 1000)
        summary["bytes"] = os.path.getsize(args.page)
        mark("start_and_load")
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors: fail("console errors: %s" % errors)
        report = json.load(open(args.report))
        groups, attention = expected_model(report)
        # Every kind's attributes in one call: one WebDriver round trip per kind and attribute
        # took 15 s on the 10,000-file page.
        kinds = driver.execute_script("""return Array.prototype.map.call(document.querySelectorAll('article.group'), function (a) {
            return {id: a.id, pass: a.getAttribute('data-pass'), follows: a.getAttribute('data-follows')}; });""")
        if sorted(k["id"] for k in kinds) != sorted(groups):
            fail("groups on the page differ from the report's")
        summary["groups"] = len(kinds)
        text = lambda i: driver.find_element(By.ID, i).text

        def check(label, **filters):
            want = counts(groups, attention, **filters)
            # The four counts as shown (innerText, what Selenium's .text reads) and the index's
            # visible rows, in one round trip.
            shown = driver.execute_script("""return ['groups-count', 'files-count', 'edits-count', 'attention-count'].map(function (i) {
                return document.getElementById(i).innerText.trim(); }).concat([Array.prototype.filter.call(
                document.querySelectorAll('#kind-index-rows tr'), function (tr) { return !tr.hidden; }).length]);""")
            got = tuple(int(n) for n in shown[:4])
            if got != want: fail("%s: page shows groups/files/edits/attention %s, the report %s" % (label, got, want))
            rows = shown[4]
            if rows != got[0]: fail("%s: the index of kinds shows %d rows for %d kinds" % (label, rows, got[0]))
            return got

        summary["unfiltered"] = check("unfiltered")
        summary["height"] = driver.execute_script("return document.documentElement.scrollHeight;")
        # Landmarks; colour never the only signal (each added or removed line keeps its + or -);
        # text contrast at least 4.5:1 against the background it is drawn on.
        for selector in ["header", "nav#filters", "main"]:
            if not driver.find_elements(By.CSS_SELECTOR, selector): fail("no %s landmark" % selector)
        marks = driver.execute_script("""
            var bad = 0;
            document.querySelectorAll('pre.diff ins').forEach(function (s) { if (s.textContent[0] !== '+') { bad++; } });
            document.querySelectorAll('pre.diff del').forEach(function (s) { if (s.textContent[0] !== '-') { bad++; } });
            return bad;""")
        if marks: fail("%d diff lines are told apart by colour alone" % marks)
        low = driver.execute_script("""
            function rgb(c) { var m = c.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; }
            function lum(c) { var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
              return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }
            function background(el) { while (el) { var c = rgb(getComputedStyle(el).backgroundColor); if (c.length < 4 || c[3] > 0) { return c; } el = el.parentElement; } return [255, 255, 255]; }
            var worst = [];
            document.querySelectorAll('body *').forEach(function (el) {
              if (!el.offsetParent || !Array.prototype.some.call(el.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); })) { return; }
              var a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
              var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
              if (ratio < 4.5) { worst.push(el.tagName + '.' + el.className + ' ' + ratio.toFixed(2)); }
            });
            return worst;""")
        if low: fail("text below 4.5:1 contrast: %s" % low[:5])
        if args.load_only:
            print(json.dumps(summary)); return
        for option in Select(driver.find_element(By.ID, "filter-pass")).options[1:]:
            Select(driver.find_element(By.ID, "filter-pass")).select_by_value(option.get_attribute("value"))
            check("pass " + option.get_attribute("value"), pass_id=option.get_attribute("value"))
        Select(driver.find_element(By.ID, "filter-pass")).select_by_value("")
        for option in Select(driver.find_element(By.ID, "filter-repo")).options[1:]:
            Select(driver.find_element(By.ID, "filter-repo")).select_by_value(option.get_attribute("value"))
            check("repository " + option.text, repo=int(option.get_attribute("value")))
        Select(driver.find_element(By.ID, "filter-repo")).select_by_value("")
        for option in Select(driver.find_element(By.ID, "filter-impact")).options[1:]:
            Select(driver.find_element(By.ID, "filter-impact")).select_by_value(option.get_attribute("value"))
            check("impact " + option.get_attribute("value"), impact=option.get_attribute("value"))
        Select(driver.find_element(By.ID, "filter-impact")).select_by_value("")
        if args.search:
            box = driver.find_element(By.ID, "filter-search")
            box.send_keys(args.search)
            summary["search"] = check("search " + args.search, path_query=args.search.lower())
            box.clear(); box.send_keys(" "); box.send_keys(Keys.BACKSPACE)
        summary["reset"] = check("after reset")

        # A kind accepted while a kind it follows in the same files is rejected: a warning on it.
        follower_kind = next((k for k in kinds if k["follows"]), None)
        follower = driver.find_element(By.ID, follower_kind["id"]) if follower_kind else None
        if follower is not None:
            first = follower_kind["follows"].split()[0]
            leader = driver.find_element(By.ID, first)
            radio = lambda article, value: article.find_element(By.CSS_SELECTOR, "input[type=radio][value='%s']" % value)
            driver.execute_script("arguments[0].click(); arguments[1].click();", radio(follower, "accept"), radio(leader, "reject"))
            warning = follower.find_element(By.CSS_SELECTOR, ".follows-warning")
            if not warning.is_displayed() or first not in warning.text: fail("no warning on a kind accepted after a rejected one")
            driver.execute_script("arguments[0].click(); arguments[1].click();", radio(follower, ""), radio(leader, ""))
            if warning.is_displayed(): fail("the warning stays once the decision is undone")
            summary["follows_warning"] = True
            # Accepted while what it follows is undecided: a warning, an offer to
            # accept that as well, and the mark in the exported decision.
            driver.execute_script("arguments[0].click();", radio(follower, "accept"))
            if not warning.is_displayed() or "undecided" not in warning.text or first not in warning.text:
                fail("no warning on a kind accepted after an undecided one: %r" % warning.text)
            marked = json.loads(driver.find_element(By.ID, "decision-json").get_attribute("value"))
            if first not in marked.get("undecidedPrerequisites", {}).get(follower.get_attribute("id"), []):
                fail("the exported decision does not mark the undecided prerequisite: %s" % marked)
            driver.execute_script("arguments[0].click();", warning.find_element(By.TAG_NAME, "button"))
            if not radio(leader, "accept").is_selected() or warning.is_displayed():
                fail("'accept as well' did not accept %s" % first)
            driver.execute_script("arguments[0].click(); arguments[1].click();", radio(follower, ""), radio(leader, ""))
            summary["undecided_warning"] = True

        # Each kind's controls sit under its heading; the index of kinds lists every kind with a
        # jump link, follows the filters and shows each decision.
        layout = driver.execute_script("""
            var misplaced = 0;
            document.querySelectorAll('article.group').forEach(function (g) {
              var set = g.querySelector('fieldset.decision');
              if (!set || !set.previousElementSibling || set.previousElementSibling.tagName !== 'H4') { misplaced++; }
            });
            var rows = document.querySelectorAll('#kind-index-rows tr'), linked = 0;
            rows.forEach(function (tr) { var a = tr.querySelector('a[href^="#"]'); if (a && document.getElementById(a.getAttribute('href').slice(1))) { linked++; } });
            return [misplaced, rows.length, linked, document.querySelectorAll('ul.files .repo').length];""")
        if layout[0]: fail("%d kinds have their decision controls away from their heading" % layout[0])
        if layout[1] != len(kinds) or layout[2] != len(kinds): fail("the index of kinds has %d rows, %d linked, for %d kinds" % (layout[1], layout[2], len(kinds)))
        if layout[3]: fail("%d files repeat their repository's name instead of sitting under it" % layout[3])
        summary["index_rows"] = layout[1]
        copies = driver.execute_script("return [document.querySelectorAll('button.copy').length, Array.prototype.filter.call(document.querySelectorAll('code.command'), function (c) { return c.textContent !== 'nothing to apply'; }).length];")
        if copies[0] != copies[1]: fail("%d copy buttons for %d apply commands" % tuple(copies))
        # Each button copies the command the shell runs: the one in data-copy where the shown one
        # marks a character a reader cannot see, else the text shown.
        copied = driver.execute_async_script("""var done = arguments[arguments.length - 1], got = [];
            var buttons = document.querySelectorAll('button.copy');
            navigator.clipboard.writeText = function (text) { got.push(text); return Promise.resolve(); };
            buttons.forEach(function (b) { b.click(); });
            setTimeout(function () {
              done([got, Array.prototype.map.call(buttons, function (b) {
                var code = b.parentNode.querySelector('code.command');
                return code.getAttribute('data-copy') || code.textContent; })]);
            }, 50);""")
        if copied[0] != copied[1]: fail("the Copy buttons copied %r, not the runnable commands %r" % (copied[0][:2], copied[1][:2]))

        # Decisions last: accept all shown under a filter, an "undecided" filter,
        # a visible state on each kind, and the same decisions after a reload.
        first_pass = kinds[0]["pass"]
        Select(driver.find_element(By.ID, "filter-pass")).select_by_value(first_pass)
        driver.find_element(By.ID, "accept-shown").click()
        shown_ids = sorted(k["id"] for k in kinds if k["pass"] == first_pass)
        Select(driver.find_element(By.ID, "filter-pass")).select_by_value("")
        decided = json.loads(driver.find_element(By.ID, "decision-json").get_attribute("value"))
        if sorted(decided["accepted"]) != shown_ids: fail("accept all shown accepted %s, not the shown %s" % (decided["accepted"], shown_ids))
        states = driver.execute_script("""var m = {}; document.querySelectorAll('article.group').forEach(function (a) {
            m[a.id] = a.querySelector('.state').innerText.trim(); }); return m;""")
        if any((states[g] == "Accepted") != (g in shown_ids) for g in states): fail("kinds' states %s" % states)
        listed = driver.execute_script("var m = {}; document.querySelectorAll('#kind-index-rows tr').forEach(function (tr) { m[tr.cells[0].textContent] = tr.cells[4].textContent; }); return m;")
        if listed != states: fail("the index of kinds shows the decisions %s, the kinds %s" % (listed, states))
        Select(driver.find_element(By.ID, "filter-decision")).select_by_value("undecided")
        undecided = int(text("groups-count"))
        if undecided != len(kinds) - len(shown_ids): fail("undecided filter shows %d kinds, not %d" % (undecided, len(kinds) - len(shown_ids)))
        Select(driver.find_element(By.ID, "filter-decision")).select_by_value("")
        driver.refresh()
        ready(driver)
        kept = json.loads(driver.find_element(By.ID, "decision-json").get_attribute("value"))
        if sorted(kept["accepted"]) != shown_ids: fail("after a reload the decision is %s, not %s" % (kept, shown_ids))
        summary["persisted"] = True
        driver.execute_script("""document.querySelectorAll('article.group').forEach(function (a) {
            a.querySelector("input[type=radio][value='']").click(); });""")
        summary["after_reload"] = check("after reload")

        if args.decide:
            # Decisions by pass, clicked as a person would; the download is the decision file.
            wanted = dict(item.split("=", 1) for item in args.decide)
            value = lambda p: {"accept": "accept", "reject": "reject"}.get(wanted.get(p, wanted.get("*", "undecided")), "")
            for k in kinds:
                driver.execute_script("arguments[0].click();", driver.find_element(By.CSS_SELECTOR, "article.group[id='%s'] input[type=radio][value='%s']" % (k["id"], value(k["pass"]))))
            driver.find_element(By.ID, "export-button").click()
            decision = json.loads(driver.find_element(By.ID, "decision-json").get_attribute("value"))
            target = os.path.join(args.download_dir, "plist-migrate-decision.json")
            for _ in range(100):
                if os.path.exists(target) and os.path.getsize(target) > 0: break
                time.sleep(0.1)
            time.sleep(0.2)
            if not os.path.exists(target): fail("the download button saved no file")
            if json.load(open(target)) != decision: fail("the downloaded decision differs from the one shown")
            if decision.get("schemaVersion") != 2 or not decision.get("files"): fail("the decision carries no plan: %s" % list(decision))
            commands = driver.execute_script("""return Array.prototype.filter.call(document.querySelectorAll('code.command'),
                function (c) { return c.textContent !== 'nothing to apply'; }).map(function (c) { return c.getAttribute('data-copy') || c.textContent; });""")
            json.dump(commands, open(args.commands, "w"))
            summary["decided"] = {"accepted": len(decision["accepted"]), "rejected": len(decision["rejected"]), "files": len(decision["files"])}

        # Invisible and bidirectional characters are shown as marks, never as themselves.
        hidden_chars = driver.execute_script("""
            var bad = /[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/;
            var n = 0; document.querySelectorAll('body *').forEach(function (el) {
              Array.prototype.forEach.call(el.childNodes, function (t) { if (t.nodeType === 3 && bad.test(t.textContent)) { n++; } });
            }); return n;""")
        if hidden_chars: fail("%d text nodes show invisible or bidirectional characters" % hidden_chars)

        # 390 px wide (a phone): no horizontal scroll of the document; then the desktop again.
        driver.set_window_size(390, 844)
        width = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth];")
        if width[0] > width[1]: fail("at 390 px the document scrolls sideways: %s" % width)
        summary["narrow_width"] = width
        # The repository table folds into one card per repository; a count never breaks across
        # lines, nor does any word of a heading cell ("C/o/m/mi/t" at 390 px before).
        folded = driver.execute_script("""
            var rows = document.querySelectorAll('table.repos tbody tr'), tall = 0, split = 0, table = 0;
            rows.forEach(function (tr) {
              if (getComputedStyle(tr).display !== 'block') { table++; }
              if (tr.getBoundingClientRect().height > 400) { tall++; }
              tr.querySelectorAll('td.num, td:first-of-type code').forEach(function (cell) {
                var range = document.createRange(); range.selectNodeContents(cell);
                var lines = {}; Array.prototype.forEach.call(range.getClientRects(), function (r) { if (r.width > 0) { lines[Math.round(r.top)] = true; } });
                if (Object.keys(lines).length > 1) { split++; }
              });
            });
            return [rows.length, table, tall, split];""")
        if folded[1]: fail("at 390 px %d of %d repository rows are still table rows" % (folded[1], folded[0]))
        if folded[2]: fail("at 390 px %d repository cards are taller than 400 px" % folded[2])
        if folded[3]: fail("at 390 px %d counts or commits break across lines" % folded[3])
        summary["repository_cards"] = folded[0]
        # A command breaks between its words, never inside one that fits on a line (an option
        # cut in two reads as another).
        cut = driver.execute_script("""
            var cut = [], probe = document.createElement('span');
            probe.style.whiteSpace = 'nowrap'; probe.style.position = 'absolute'; probe.style.visibility = 'hidden';
            document.querySelectorAll('code.command').forEach(function (code) {
              if (!code.offsetParent) { return; }
              var room = code.closest('td, p').getBoundingClientRect().width;
              var walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), node, texts = [];
              while ((node = walker.nextNode())) { texts.push(node); }
              code.appendChild(probe);
              texts.forEach(function (text) {
                var at = 0;
                text.textContent.split(' ').forEach(function (word) {
                  if (word) {
                    var range = document.createRange(); range.setStart(text, at); range.setEnd(text, at + word.length);
                    var lines = {}; Array.prototype.forEach.call(range.getClientRects(), function (r) { if (r.width > 0) { lines[Math.round(r.top)] = true; } });
                    probe.textContent = word;
                    if (Object.keys(lines).length > 1 && probe.getBoundingClientRect().width <= room) { cut.push(word); }
                  }
                  at += word.length + 1;
                });
              });
              probe.remove();
            });
            return cut;""")
        if cut: fail("at 390 px commands break inside the words %s" % cut[:5])
        one_files = driver.execute_script("return (document.body.innerText.match(/(^|\\D)1 files\\b/g) || []).length;")
        if one_files: fail("the page says \"1 files\" %d times" % one_files)
        mark("checks")
        if args.axe:
            summary["axe_narrow"] = axe(driver, args.axe, args.axe_without, args.axe_sample)
            mark("axe_narrow")
        driver.set_window_size(1280, 1600)

        # The sticky bar never covers the focused control (WCAG 2.4.11): tab through the page.
        if args.skip_keyboard:
            print(json.dumps(summary)); return
        obscured = []
        driver.execute_script("window.scrollTo(0, 0);")
        body = driver.find_element(By.TAG_NAME, "body")
        for _ in range(60):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            covered = driver.execute_script("""
                var el = document.activeElement, bar = document.getElementById('filters');
                if (!el || bar.contains(el) || el === document.body) { return null; }
                var r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
                return r.top < b.bottom && r.bottom > b.top ? el.tagName + ' ' + (el.id || el.name || '') : null;""")
            if covered: obscured.append(covered)
        if obscured: fail("the sticky bar covers focused controls: %s" % obscured[:5])
        mark("sticky_bar")
        if args.axe:
            summary["axe_desktop"] = axe(driver, args.axe)
            mark("axe_desktop")
            # And in dark mode (prefers-color-scheme: dark), where the colours are others.
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            summary["axe_dark"] = axe(driver, args.axe)
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            mark("axe_dark")

        # Keyboard only: Tab from the top reaches every control (one radio per group).
        focusable = driver.execute_script("""
            var seen = {}, list = [];
            document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex="0"]').forEach(function (el, i) {
              if (el.closest('[hidden]') || el.offsetParent === null && el.tagName !== 'SUMMARY') { return; }
              if (el.type === 'radio') { if (seen[el.name] || !el.checked) { return; } seen[el.name] = true; }
              el.setAttribute('data-probe', String(i)); list.push(String(i));
            });
            return list;""")
        driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        body = driver.find_element(By.TAG_NAME, "body")
        reached = set()
        active = body
        for _ in range(len(focusable) + 10):
            # Key presses go to whatever has focus (send_keys on a file input would pick a file).
            ActionChains(driver).send_keys(Keys.TAB).perform()
            active = driver.switch_to.active_element
            probe = active.get_attribute("data-probe")
            if probe: reached.add(probe)
        missing = [p for p in focusable if p not in reached]
        if missing: fail("keyboard navigation does not reach %d of %d controls" % (len(missing), len(focusable)))
        summary["keyboard_controls"] = len(focusable)
        mark("keyboard")

        if args.accept_pass:
            accepted = driver.execute_script("""var ids = [], pass = arguments[0];
                document.querySelectorAll('article.group').forEach(function (a) {
                  if (a.getAttribute('data-pass') === pass) { a.querySelector('input[type=radio][value=accept]').click(); ids.push(a.id); }
                }); return ids;""", args.accept_pass)
            driver.find_element(By.ID, "export-button").click()
            decision = json.loads(driver.find_element(By.ID, "decision-json").get_attribute("value"))
            if sorted(decision["accepted"]) != sorted(accepted): fail("exported decision %s, accepted %s" % (decision, accepted))
            if sorted(decision.get("reviewed", [])) != sorted(k["id"] for k in kinds):
                fail("the exported decision's reviewed kinds %s are not the page's %s" % (decision.get("reviewed"), [k["id"] for k in kinds]))
            if args.download_dir:
                target = os.path.join(args.download_dir, "plist-migrate-decision.json")
                for _ in range(50):
                    if os.path.exists(target): break
                    time.sleep(0.1)
                if not os.path.exists(target): fail("the download button saved no file")
                if json.load(open(target)) != decision: fail("the downloaded decision differs from the one shown")
                summary["downloaded"] = True
            if args.decision:
                json.dump(decision, open(args.decision, "w"))
            summary["accepted"] = accepted
        if args.screenshot:
            driver.execute_script("window.scrollTo(0, 0);")
            driver.save_screenshot(args.screenshot)
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors: fail("console errors: %s" % errors)
    finally:
        driver.quit()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
