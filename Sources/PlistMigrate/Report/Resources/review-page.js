(function () {
  'use strict';
  // A large page carries some kinds and its long file lists compressed (raw DEFLATE in
  // base64): read them first, put the kinds in place, then start.
  function blockText(id) {
    var block = document.getElementById(id);
    if (!block) { return Promise.resolve(null); }
    if (block.type === 'application/json') { return Promise.resolve(block.textContent); }
    try {
      var bytes = Uint8Array.from(atob(block.textContent.trim()), function (c) { return c.charCodeAt(0); });
      return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
    } catch (error) {
      // A browser without DecompressionStream: said in the filter bar, not thrown.
      return Promise.reject(error);
    }
  }
  function insertKinds(markup) {
    var template = document.createElement('template'), here = document.getElementById('more-kinds-here');
    template.innerHTML = markup;
    Array.prototype.slice.call(template.content.children).forEach(function (section) {
      var continued = section.getAttribute('data-continues'), heading = continued && document.getElementById(continued);
      if (heading) {
        var into = heading.closest('section');
        while (section.firstChild) { into.appendChild(section.firstChild); }
      } else {
        here.parentNode.insertBefore(section, here);
      }
    });
  }
  Promise.all([blockText('more-kinds'), blockText('file-lists'), blockText('review-plan')]).then(function (texts) {
    if (texts[0]) { insertKinds(texts[0]); }
    start(texts[1] ? JSON.parse(texts[1]) : null, texts[2] ? JSON.parse(texts[2]) : null);
    document.documentElement.setAttribute('data-ready', 'true');
  }, function (error) {
    var status = document.getElementById('filter-status');
    document.getElementById('filters').hidden = false;
    if (status) { status.textContent = 'This browser could not read the compressed part of the page (' + error + '): the kinds above are all it shows.'; }
    document.documentElement.setAttribute('data-ready', 'failed');
  });
  function start(lists, plan) {
  // Each kind's decision: Accept, Reject, Undecided (made here: without the script there is
  // nothing to decide with); its state, in its heading; and, where it follows other kinds,
  // the place for the warning when a decision accepts it but rejects one of those.
  document.querySelectorAll('article.group').forEach(function (g) {
    var set = document.createElement('fieldset'), legend = document.createElement('legend');
    set.className = 'decision'; legend.textContent = 'Decision on ' + g.id; set.appendChild(legend);
    [['accept', 'Accept'], ['reject', 'Reject'], ['', 'Undecided']].forEach(function (choice) {
      var label = document.createElement('label'), input = document.createElement('input');
      input.type = 'radio'; input.name = 'd-' + g.id; input.value = choice[0]; input.checked = choice[0] === '';
      label.appendChild(input); label.appendChild(document.createTextNode(' ' + choice[1] + ' ')); set.appendChild(label);
    });
    // The controls sit under the kind's heading, not below a file list hundreds of lines long.
    var heading = g.querySelector('h4');
    heading.parentNode.insertBefore(set, heading.nextSibling);
    var state = document.createElement('span'); state.className = 'state'; state.textContent = 'Undecided';
    heading.appendChild(document.createTextNode(' ')); heading.appendChild(state);
    var follows = g.querySelector('p.follows');
    if (follows) {
      var warning = document.createElement('p'); warning.className = 'follows-warning'; warning.setAttribute('role', 'alert'); warning.hidden = true;
      follows.parentNode.insertBefore(warning, follows.nextSibling);
    }
  });
  // Each repository's apply command gets a button that copies it.
  document.querySelectorAll('code.command').forEach(function (code) {
    if (code.textContent === 'nothing to apply') { return; }
    var button = document.createElement('button');
    button.type = 'button'; button.className = 'copy'; button.textContent = 'Copy';
    var row = code.closest('tr');
    button.setAttribute('aria-label', row ? 'Copy the command for ' + row.querySelector('th').textContent : 'Copy the command that applies every reviewed file');
    button.addEventListener('click', function () {
      var done = function () { button.textContent = 'Copied'; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        // The command as the shell takes it: the shown one marks what a reader cannot see.
        navigator.clipboard.writeText(code.getAttribute('data-copy') || code.textContent).then(done, function () { window.getSelection().selectAllChildren(code); });
      } else { window.getSelection().selectAllChildren(code); }
    });
    code.parentNode.insertBefore(button, code);
    code.parentNode.insertBefore(document.createTextNode(' '), code);
  });
  document.querySelectorAll('.js-only, #filters').forEach(function (el) { el.hidden = false; });
  document.querySelectorAll('.nojs').forEach(function (el) { el.hidden = true; });
  var pass = document.getElementById('filter-pass'), repo = document.getElementById('filter-repo');
  var impact = document.getElementById('filter-impact'), search = document.getElementById('filter-search');
  var groups = Array.prototype.slice.call(document.querySelectorAll('article.group'));
  // The index of kinds: one row per kind, a jump link, its pass, files, whether it
  // tightens, and its decision; rows follow the filters and the decisions.
  var indexRows = document.getElementById('kind-index-rows');
  groups.forEach(function (g) {
    if (!indexRows) { return; }
    var tr = document.createElement('tr'), link = document.createElement('a'), code = document.createElement('code');
    link.href = '#' + g.id; code.textContent = g.id; link.appendChild(code);
    var size = g.querySelector('h4 .size .n');
    [link, g.dataset.pass, size ? size.textContent : '', g.querySelector('h4 .tightens') ? 'tightens' : '', 'Undecided'].forEach(function (c) {
      var td = document.createElement('td');
      if (typeof c === 'string') { td.textContent = c; } else { td.appendChild(c); }
      tr.appendChild(td);
    });
    g.indexRow = tr; indexRows.appendChild(tr);
  });
  var items = Array.prototype.slice.call(document.querySelectorAll('#attention li.item'));
  // Every file list as data: a short one read from its items, a long one (its first files
  // only are in the HTML) from the page's JSON block, where each path is written once.
  var fileData = (function (d) {
    if (!d) { return null; }
    var paths = [];
    d.paths.forEach(function (p) {
      var a = p.indexOf('|'), b = p.indexOf('|', a + 1), prev = paths.length ? paths[paths.length - 1] : '';
      var suffix = Number(p.slice(a + 1, b));
      paths.push(prev.slice(0, Number(p.slice(0, a))) + p.slice(b + 1) + (suffix ? prev.slice(prev.length - suffix) : ''));
    });
    d.decoded = paths;
    return d;
  }(lists));
  var repoNames = repo ? Array.prototype.slice.call(repo.options, 1).map(function (o) { return o.textContent; }) : [];
  function listOf(ul) {
    if (ul.files) { return ul.files; }
    var files = [], n = ul.getAttribute('data-list');
    if (n !== null && fileData) {
      var l = fileData.lists[Number(n)], at = 0;
      l.i.forEach(function (delta, k) {
        at += delta;
        var r = fileData.repos ? fileData.repos[at] : -1, base = fileData.bases && r >= 0 ? fileData.bases[r] : null;
        var text = fileData.decoded[at] + (l.t ? l.t[k] : '');
        files.push({ text: text, key: text.toLowerCase(), repo: r >= 0 ? String(r) : null, edits: l.e ? l.e[k] : 1,
          url: base && l.u && l.u[k] !== null ? base + l.u[k] : null });
      });
      ul.lazy = true;
      var details = ul.closest('details');
      if (details) { details.addEventListener('toggle', function () { render(ul); }); }
    } else {
      ul.querySelectorAll('li:not(.repo-head)').forEach(function (li) {
        var text = li.firstChild ? li.firstChild.textContent : '';
        files.push({ text: text, key: text.toLowerCase(), repo: li.getAttribute('data-repo'), edits: Number(li.dataset.edits || 0), li: li });
      });
    }
    ul.files = files; ul.kept = files;
    return files;
  }
  // A long list is written out when it is open (or printed), and again after a filter.
  function render(ul, always) {
    var details = ul.closest('details');
    if (!ul.lazy || !ul.stale || (!always && details && !details.open)) { return; }
    ul.stale = false;
    var several = repoNames.length > 1, out = document.createDocumentFragment(), last;
    var kept = several ? ul.kept.map(function (f, k) { return [f, k]; }).sort(function (a, b) {
      return (Number(a[0].repo) - Number(b[0].repo)) || (a[1] - b[1]); }).map(function (p) { return p[0]; }) : ul.kept;
    kept.forEach(function (f) {
      if (several && f.repo !== last) {
        last = f.repo;
        var head = document.createElement('li'); head.className = 'repo-head';
        head.textContent = f.repo !== null ? (repoNames[Number(f.repo)] || '') : '(no repository)';
        out.appendChild(head);
      }
      var li = document.createElement('li'), label;
      if (f.url) { label = document.createElement('a'); label.href = f.url; label.textContent = f.text; } else { label = document.createTextNode(f.text); }
      li.appendChild(label);
      out.appendChild(li);
    });
    ul.textContent = ''; ul.appendChild(out);
  }
  // The files of a kind or item that stay: those of the repository chosen and, unless the
  // search matched the kind's own text, those whose path holds the search.
  function filesIn(el, r, q, whole) {
    var n = 0;
    el.querySelectorAll('ul.files').forEach(function (ul) {
      var kept = [];
      listOf(ul).forEach(function (f) {
        var show = (r === '' || f.repo === r) && (whole || f.key.indexOf(q) >= 0);
        if (f.li) { f.li.hidden = !show; }
        if (show) { kept.push(f); }
      });
      n += kept.length;
      ul.kept = kept;
      if (ul.lazy) { ul.stale = true; render(ul); }
      else {
        // A repository's heading shows while one of its files does.
        var head = null, any = false;
        Array.prototype.forEach.call(ul.children, function (li) {
          if (li.classList.contains('repo-head')) { if (head) { head.hidden = !any; } head = li; any = false; }
          else if (!li.hidden) { any = true; }
        });
        if (head) { head.hidden = !any; }
      }
    });
    el.querySelectorAll('summary .n').forEach(function (s) { count(s, n); });
    return n;
  }
  function plural(n, noun) { return n + ' ' + noun + (n === 1 ? '' : 's'); }
  // A count and the noun after it ("1 file", "2 files").
  function count(span, n) {
    span.textContent = String(n);
    var after = span.nextSibling;
    if (after && after.nodeType === 3) { after.textContent = after.textContent.replace(/^ files?\b/, n === 1 ? ' file' : ' files'); }
  }
  var decisionFilter = document.getElementById('filter-decision');
  function stateOf(g) { var c = g.querySelector('input[type=radio]:checked'); return c ? c.value : ''; }
  function apply() {
    var p = pass ? pass.value : '', r = repo ? repo.value : '', i = impact ? impact.value : '';
    var d = decisionFilter ? decisionFilter.value : '';
    var q = search ? search.value.trim().toLowerCase() : '';
    var shown = 0, edits = 0, files = {};
    groups.forEach(function (g) {
      var ok = (!p || g.dataset.pass === p) && (!i || g.dataset.impact === i)
        && (!d || (d === 'undecided' ? stateOf(g) === '' : stateOf(g) === d));
      if (g.search === undefined) {
        g.search = (g.parentNode.querySelector('h3').textContent + ' ' + Array.prototype.map.call(g.querySelectorAll('h4, pre.diff, .delta, .delta-none'),
          function (el) { return el.textContent; }).join(' ')).toLowerCase();
      }
      var n = ok ? filesIn(g, r, q, !q || g.search.indexOf(q) >= 0) : 0;
      if (ok && n === 0) { ok = false; }
      g.hidden = !ok;
      var size = g.querySelector('h4 .size .n'); if (size) { count(size, n); }
      if (g.indexRow) { g.indexRow.hidden = !ok; g.indexRow.cells[2].textContent = String(n); }
      if (ok) {
        shown++;
        g.querySelectorAll('ul.files').forEach(function (ul) {
          ul.kept.forEach(function (f) { files[f.text] = true; edits += f.edits; });
        });
      }
    });
    document.querySelectorAll('section.pass-kinds').forEach(function (section) {
      section.hidden = !section.querySelector('article.group:not([hidden])');
    });
    var attention = 0;
    items.forEach(function (it) {
      var matched = !q || it.dataset.search.indexOf(q) >= 0;
      var ok = !p || it.dataset.pass === p;
      if (ok && r !== '') { ok = (' ' + it.dataset.repos + ' ').indexOf(' ' + r + ' ') >= 0; }
      if (ok && it.querySelector('ul.files')) { ok = filesIn(it, r, q, matched) > 0; } else { ok = ok && matched; }
      it.hidden = !ok; if (ok) { attention++; }
    });
    document.getElementById('groups-count').textContent = String(shown);
    document.getElementById('files-count').textContent = String(Object.keys(files).length);
    document.getElementById('edits-count').textContent = String(edits);
    document.getElementById('attention-count').textContent = String(attention);
    var status = document.getElementById('filter-status');
    if (status) { status.textContent = shown + ' of ' + plural(groups.length, 'kind') + ' of change shown; ' + attention + ' of ' + plural(items.length, 'item') + ' ' + (items.length === 1 ? 'needs' : 'need') + ' a person.'; }
  }
  [pass, repo, impact, decisionFilter].forEach(function (el) { if (el) { el.addEventListener('change', apply); } });
  if (search) { search.addEventListener('input', apply); }
  function decision() {
    var accepted = [], rejected = [];
    groups.forEach(function (g) {
      var checked = g.querySelector('input[type=radio]:checked');
      if (checked && checked.value === 'accept') { accepted.push(g.id); }
      if (checked && checked.value === 'reject') { rejected.push(g.id); }
    });
    var version = JSON.parse(document.getElementById('tool-version').textContent);
    // Every kind this page showed: a run tells another repository's kind from an edit
    // nobody reviewed (a file changed since) by it.
    var reviewed = [];
    groups.forEach(function (g) { reviewed.push(g.id); });
    var result = { schemaVersion: plan ? 2 : 1, toolVersion: version, accepted: accepted, rejected: rejected, reviewed: reviewed };
    // Accepted kinds whose prerequisites are undecided, marked in the file.
    var open = {};
    groups.forEach(function (g) {
      if (accepted.indexOf(g.id) < 0 || !g.dataset.follows) { return; }
      var o = g.dataset.follows.split(' ').filter(function (id) { return id && accepted.indexOf(id) < 0 && rejected.indexOf(id) < 0; });
      if (o.length) { open[g.id] = o; }
    });
    if (Object.keys(open).length) { result.undecidedPrerequisites = open; }
    // The plan the page was made from: what apply runs again, and the bytes each file had.
    if (plan) { result.runs = plan.runs; result.repositories = plan.repositories; result.files = plan.files; }
    return result;
  }
  // A kind accepted while a kind it follows in some files is rejected, or still undecided:
  // say so on it, and offer to accept the undecided ones as well.
  function warnings(d) {
    groups.forEach(function (g) {
      var warning = g.querySelector('.follows-warning');
      if (!warning) { return; }
      var follows = d.accepted.indexOf(g.id) >= 0 ? g.dataset.follows.split(' ').filter(Boolean) : [];
      var blocked = follows.filter(function (id) { return d.rejected.indexOf(id) >= 0; });
      var open = follows.filter(function (id) { return d.rejected.indexOf(id) < 0 && d.accepted.indexOf(id) < 0; });
      warning.hidden = blocked.length + open.length === 0;
      warning.textContent = '';
      if (blocked.length) {
        warning.appendChild(document.createTextNode('Accepted, but it follows ' + blocked.join(', ') + ', which you rejected: in the files where it does, --accept cannot apply it and fails. '));
      }
      if (open.length) {
        warning.appendChild(document.createTextNode('Accepted, but it follows ' + open.join(', ') + ', still undecided: unless '
          + (open.length === 1 ? 'that is' : 'those are') + ' accepted too, --accept cannot apply it there and fails. '));
        var button = document.createElement('button');
        button.type = 'button'; button.textContent = 'Accept ' + open.join(', ') + ' as well';
        button.addEventListener('click', function () {
          open.forEach(function (id) { var other = document.getElementById(id); if (other) { choose(other, 'accept'); } });
          refresh(); apply();
        });
        warning.appendChild(button);
      }
    });
  }
  // Decisions last: kept in local storage under this report's key, and restored on load.
  var storageKey = 'plist-migrate-decision:' + JSON.parse(document.getElementById('report-key').textContent);
  function choose(g, value) {
    var radio = g.querySelector('input[type=radio][value="' + value + '"]');
    if (radio) { radio.checked = true; }
  }
  function load(d) {
    var known = 0;
    groups.forEach(function (g) {
      var id = g.id, value = d.accepted.indexOf(id) >= 0 ? 'accept' : (d.rejected || []).indexOf(id) >= 0 ? 'reject' : '';
      if (value) { known++; }
      choose(g, value);
    });
    return known;
  }
  try { var kept = JSON.parse(localStorage.getItem(storageKey) || 'null'); if (kept && kept.accepted) { load(kept); } } catch (e) { /* storage unavailable */ }
  var names = { accept: 'Accepted', reject: 'Rejected', '': 'Undecided' };
  function refresh() {
    var d = decision();
    warnings(d);
    groups.forEach(function (g) {
      var s = g.querySelector('.state'); if (s) { s.textContent = names[stateOf(g)]; }
      if (g.indexRow) { g.indexRow.cells[4].textContent = names[stateOf(g)]; }
    });
    try { localStorage.setItem(storageKey, JSON.stringify({ accepted: d.accepted, rejected: d.rejected })); } catch (e) { /* storage unavailable */ }
    document.getElementById('decided').textContent = d.accepted.length + ' accepted, ' + d.rejected.length + ' rejected';
    document.getElementById('decision-json').value = JSON.stringify(d, null, 2) + '\n';
  }
  document.querySelectorAll('fieldset.decision input').forEach(function (el) {
    el.addEventListener('change', function () { refresh(); if (decisionFilter && decisionFilter.value) { apply(); } });
  });
  document.getElementById('accept-shown').addEventListener('click', function () {
    groups.forEach(function (g) { if (!g.hidden) { choose(g, 'accept'); } });
    refresh(); apply();
  });
  var file = document.getElementById('decision-file');
  if (file) {
    file.addEventListener('change', function () {
      var chosen = file.files && file.files[0], status = document.getElementById('decision-loaded');
      if (!chosen) { return; }
      var reader = new FileReader();
      reader.onload = function () {
        try {
          var d = JSON.parse(String(reader.result));
          if (!d || (d.schemaVersion !== 1 && d.schemaVersion !== 2) || !Array.isArray(d.accepted)) { throw new Error('not a review decision'); }
          var known = load(d), all = d.accepted.length + (d.rejected || []).length;
          status.textContent = 'Loaded: ' + d.accepted.length + ' accepted, ' + (d.rejected || []).length + ' rejected'
            + (all > known ? ' (' + (all - known) + ' not on this page)' : '') + '.';
        } catch (e) { status.textContent = 'Not loaded: ' + e.message + '.'; }
        refresh(); apply();
      };
      reader.readAsText(chosen);
    });
  }
  // The sticky filter bar never covers a focused control or an anchor's heading (WCAG 2.4.11).
  var bar = document.getElementById('filters');
  function pad() {
    var sticky = bar && getComputedStyle(bar).position === 'sticky';
    document.documentElement.style.scrollPaddingTop = sticky ? (bar.offsetHeight + 8) + 'px' : '0px';
  }
  window.addEventListener('resize', pad);
  document.addEventListener('focusin', function (event) {
    if (!bar || getComputedStyle(bar).position !== 'sticky' || bar.contains(event.target)) { return; }
    var box = event.target.getBoundingClientRect(), covered = bar.getBoundingClientRect().bottom;
    if (box.top < covered) { window.scrollBy(0, box.top - covered - 8); }
  });
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
    document.querySelectorAll('ul.files').forEach(function (ul) { render(ul, true); });
  });
  pad();
  document.getElementById('export-button').addEventListener('click', function () {
    refresh();
    var blob = new Blob([document.getElementById('decision-json').value], { type: 'application/json' });
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob); link.download = 'plist-migrate-decision.json';
    document.body.appendChild(link); link.click(); link.remove();
  });
  refresh(); apply();
  }
}());
