// mnrules web front end: every word it shows comes from the server's sentences.
"use strict";
const MN = (() => {
  const $ = (id) => document.getElementById(id);
  function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  // a state-changing request carries its link's token in a header too (a page of another
  // site can send a browser to a URL, never with a header of its own)
  const seatToken = location.pathname.startsWith("/play/") ? location.pathname.split("/").pop() : "";
  async function api(url, body) {
    const headers = { "content-type": "application/json" };
    if (seatToken) headers["x-mnrules-seat"] = seatToken;
    const opts = body === undefined ? {} : { method: "POST", headers: headers, body: JSON.stringify(body) };
    const r = await fetch(url, opts);
    const data = await r.json().catch(() => ({ error: "the server's answer is not JSON" }));
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }
  function showError(e) { const box = $("error"); if (box) box.textContent = e ? String(e.message || e) : ""; }
  function renderTable(table, into) {
    into.replaceChildren();
    if (!table) return;
    into.append(el("h3", table.title));
    for (const sec of table.sections) {
      if (sec.map && document.querySelector("#board svg")) continue;   // the map shows it
      into.append(el("h3", sec.title));
      const t = el("table");
      // a column of numbers is narrow: its header stands upright, its figures right-aligned
      const num = (sec.head || []).map((_, j) => sec.rows.length > 0 && sec.rows.every((r) => /^\d+$/.test(r[j] || "")));
      if (sec.head && sec.head.length) { const tr = el("tr"); sec.head.forEach((h, j) => { const th = el("th", h); if (num[j]) th.className = "num"; tr.append(th); }); t.append(tr); }
      sec.rows.forEach((row, i) => {
        const tr = el("tr");
        row.forEach((c, j) => { const td = el("td", c); if (num[j]) td.className = "num"; if (j === 0 && sec.colours) td.style.borderLeft = "8px solid " + sec.colours[i]; tr.append(td); });
        t.append(tr);
      });
      into.append(t);
      (sec.notes || []).forEach((n) => into.append(el("div", n)));
    }
  }
  // a page's own words in the game's language: the elements marked data-word, the links
  // at the top ("/" -> words.nav_new ...)
  const NAV = { "/": "nav_new", "/lobby": "nav_lobby", "/replay": "nav_replay", "/editor": "nav_editor", "/design": "nav_design" };
  function relabel(w, lang) {
    document.querySelectorAll("[data-word]").forEach((n) => { if (w[n.dataset.word]) n.textContent = w[n.dataset.word]; });
    document.querySelectorAll("header a").forEach((a) => { const t = w[NAV[a.getAttribute("href")]]; if (t) a.textContent = t; });
    const board = $("board"); if (board && w.board_label) board.setAttribute("aria-label", w.board_label);
    zoomWords(w);
    if (lang) document.documentElement.lang = lang;
  }
  // the board scrolls with the arrow keys once it has the focus (it is in the tab order)
  function scrollable(box) {
    if (!box) return;
    box.addEventListener("keydown", (ev) => {
      if (ev.target !== box) return;
      const step = { ArrowLeft: [-60, 0], ArrowRight: [60, 0], ArrowUp: [0, -60], ArrowDown: [0, 60] }[ev.key];
      if (step) { box.scrollBy(step[0], step[1]); ev.preventDefault(); }
    });
    // pan by dragging with the mouse (a finger scrolls it natively): past a few pixels a
    // press is a drag, and the click it ends with picks no area
    let drag = null, dragged = false;
    box.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType !== "mouse" || ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, left: box.scrollLeft, top: box.scrollTop, id: ev.pointerId };
      dragged = false;
    });
    box.addEventListener("pointermove", (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!dragged && Math.abs(dx) + Math.abs(dy) < 6) return;
      if (!dragged) { dragged = true; box.setPointerCapture(drag.id); box.classList.add("panning"); }
      box.scrollLeft = drag.left - dx; box.scrollTop = drag.top - dy;
      ev.preventDefault();
    });
    const stop = () => { drag = null; box.classList.remove("panning"); };
    box.addEventListener("pointerup", stop);
    box.addEventListener("pointercancel", stop);
    box.addEventListener("click", (ev) => {
      if (dragged) { dragged = false; ev.stopPropagation(); ev.preventDefault(); }
    }, true);
  }
  // the board's zoom: buttons above it (and + / - / 0 once it has the focus); the scale is
  // the player's, kept in this browser, and applied to each board drawn
  const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3];
  function zoomLevel() {
    const z = parseFloat(localStorage.getItem("mnrules.zoom") || "1");
    return ZOOMS.includes(z) ? z : 1;
  }
  function zoomBoard() {
    const svg = document.querySelector("#board svg");
    if (!svg) return;
    const z = zoomLevel();
    const w = parseFloat(svg.getAttribute("width")), h = parseFloat(svg.getAttribute("height"));
    if (w && h) { svg.style.width = (w * z) + "px"; svg.style.height = (h * z) + "px"; }
    const shown = $("zoomReset"); if (shown) shown.textContent = Math.round(z * 100) + "%";
  }
  function zoomBy(step) {
    const i = ZOOMS.indexOf(zoomLevel());
    const z = step === 0 ? 1 : ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, i + step))];
    localStorage.setItem("mnrules.zoom", String(z));
    zoomBoard();
  }
  function zoomable(box) {
    if (!box || $("zoom")) return;
    const bar = el("div", ""); bar.id = "zoom"; bar.setAttribute("role", "group");
    [["zoomOut", "\u2212", -1], ["zoomReset", "100%", 0], ["zoomIn", "+", 1]].forEach(([id, text, step]) => {
      const b = el("button", text); b.id = id; b.type = "button";
      b.onclick = () => zoomBy(step); bar.append(b);
    });
    const wrap = el("div", ""); wrap.id = "boardwrap";
    box.before(wrap); wrap.append(bar, box);
    box.addEventListener("keydown", (ev) => {
      if (ev.target !== box || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const step = { "+": 1, "=": 1, "-": -1, "0": 0 }[ev.key];
      if (step !== undefined) { zoomBy(step); ev.preventDefault(); }
    });
    zoomBoard();
  }
  function zoomWords(w) {
    [["zoomOut", "zoom_out"], ["zoomReset", "zoom_reset"], ["zoomIn", "zoom_in"]].forEach(([id, k]) => {
      const b = $(id); if (b && w[k]) { b.setAttribute("aria-label", w[k]); b.title = w[k]; }
    });
    const bar = $("zoom"); if (bar && w.zoom) bar.setAttribute("aria-label", w.zoom);
  }
  function renderLog(lines) {
    const box = $("log"); box.replaceChildren();
    lines.forEach((l) => box.append(el("div", l)));
    box.scrollTop = box.scrollHeight;
  }

  // -- new game -------------------------------------------------------------------------
  async function index() {
    const info = await api("/api/editions");
    const ed = $("edition"), lang = $("lang"), players = $("players");
    let saved = null;   // the save file picked to load, read
    info.editions.forEach((e) => { const o = el("option", e.name); o.value = e.id; ed.append(o); });
    function refresh() {
      const e = info.editions.find((x) => x.id === ed.value); const g = info.games[e.game];
      lang.replaceChildren(); g.languages.forEach((l) => { const o = el("option", (g.language_names || {})[l] || l); o.value = l; if (l === e.language) o.selected = true; lang.append(o); });
      const keep = players.value; players.replaceChildren();
      Object.keys(g.seating).forEach((n) => { const o = el("option", n); o.value = n; players.append(o); });
      players.value = keep && g.seating[keep] ? keep : Object.keys(g.seating).slice(-1)[0];
      seats();
    }
    function words() {   // the page in the language picked
      const g = info.games[info.editions.find((x) => x.id === ed.value).game];
      const w = (g.words || {})[lang.value] || {};
      relabel(w);
      const host = $("hostlink"); if (host) host.textContent = host.dataset.hotseat ? w.form_play_all : w.form_play_own;
      document.documentElement.lang = lang.value;
    }
    function seats() {
      const e = info.editions.find((x) => x.id === ed.value); const g = info.games[e.game];
      const box = $("seats"); box.replaceChildren();
      const names = (g.names || {})[lang.value] || {};
      const kinds = (g.bot_names || {})[lang.value] || {};
      words(); loadSeats();
      g.seating[players.value].forEach((p, i) => {
        const l = el("label", (names[p] || p) + " "); const s = el("select"); s.dataset.player = p; s.className = "seat";
        ["human", ...g.bots].forEach((b) => { const o = el("option", kinds[b] || b); o.value = b; s.append(o); });
        s.value = i === 0 ? "human" : "random"; l.append(s); box.append(l);
      });
    }
    if (info.editions.some((e) => e.id === "en")) ed.value = "en";
    ed.onchange = refresh; players.onchange = seats; lang.onchange = seats; refresh();
    $("new").onsubmit = async (ev) => {
      ev.preventDefault(); showError();
      const seatsBy = {}; document.querySelectorAll(".seat").forEach((s) => { seatsBy[s.dataset.player] = s.value; });
      try {
        const r = await api("/api/games", { edition: ed.value, lang: lang.value, players: Number(players.value), seed: Number($("seed").value), seats: seatsBy, hotseat: $("hotseat").checked, lobby: $("lobby").checked });
        showLinks(r, info.editions.find((x) => x.id === ed.value), lang.value);
      } catch (e) { showError(e); }
    };
    // the host's link, each human seat's and the spectator's, in the page's language
    function showLinks(r, e, l) {
      const g = info.games[e.game];
      const box = $("links"); box.replaceChildren();
      const w = (g.words || {})[l] || {}, names = (g.names || {})[l] || {};
      const a = el("a", r.hotseat ? w.form_play_all : w.form_play_own); a.href = r.host; a.id = "hostlink"; a.dataset.hotseat = r.hotseat ? "1" : ""; box.append(a);
      for (const [p, link] of Object.entries(r.seats)) { const d = el("div", (names[p] || p) + ": "); const b = el("a", location.origin + link); b.href = link; b.className = "seatlink"; b.dataset.player = p; d.append(b); box.append(d); }
      const d = el("div", (w.form_watch || "") + ": "); const b = el("a", location.origin + r.watch); b.href = r.watch; b.id = "watchlink"; d.append(b); box.append(d);
    }
    // a save's seats, prefilled from the save (its own bots and humans; a save that does
    // not name them: the first seat human, as a new game's), in the page's language
    function kindName(kinds, b) {   // "heuristic:trader" reads as "heuristic bot (trader)"
      const base = b.split(":")[0];
      return kinds[b] || (kinds[base] && base !== b ? kinds[base] + " (" + b.slice(base.length + 1) + ")" : b);
    }
    function loadLang() {
      const e = saved && info.editions.find((x) => x.id === saved.pack); if (!e) return null;
      return info.games[e.game].languages.includes(lang.value) ? lang.value : e.language;
    }
    function loadSeats() {
      const box = $("loadseats"); box.replaceChildren();
      const e = saved && info.editions.find((x) => x.id === saved.pack); if (!e) return;
      const g = info.games[e.game], l = loadLang();
      const names = (g.names || {})[l] || {}, kinds = (g.bot_names || {})[l] || {};
      const own = saved.seats || {};
      saved.state.players.forEach((p, i) => {
        const mine = own[p] || (i === 0 ? "human" : "random");
        const label = el("label", (names[p] || p) + " "); const s = el("select"); s.dataset.player = p; s.className = "loadseat";
        const choices = ["human", ...g.bots]; if (!choices.includes(mine)) choices.push(mine);
        choices.forEach((b) => { const o = el("option", kindName(kinds, b)); o.value = b; s.append(o); });
        s.value = mine; label.append(s); box.append(label);
      });
    }
    $("savefile").onchange = async () => {
      showError(); saved = null;
      const f = $("savefile").files[0];
      if (f) {
        try { const head = JSON.parse(await f.text()); if (head && head.state && Array.isArray(head.state.players)) saved = head; } catch (e) { /* the server says what is wrong */ }
      }
      loadSeats();
    };
    $("load").onclick = async () => {
      showError(); const f = $("savefile").files[0]; if (!f) return;
      const seatsBy = {}; document.querySelectorAll(".loadseat").forEach((s) => { seatsBy[s.dataset.player] = s.value; });
      const req = { save: await f.text(), seats: seatsBy, hotseat: $("hotseat").checked, lobby: $("lobby").checked }; const l = loadLang(); if (l) req.lang = l;
      try {
        const r = await api("/api/load", req);
        // one screen plays every human seat: straight to the game; else each seat's link
        if (r.hotseat || Object.keys(r.seats).length <= 1) location.href = r.host;
        else { showLinks(r, info.editions.find((x) => x.id === saved.pack), l || lang.value); $("links").scrollIntoView(); }
      } catch (e) { showError(e); }
    };
  }

  // -- play -----------------------------------------------------------------------------
  async function play() {
    const base = "/api" + location.pathname;
    let view = null, picked = [], mine = false;
    const title = document.title;
    $("save").href = base + "/save"; $("logfile").href = base + "/log";
    scrollable($("board")); zoomable($("board"));
    $("sound").checked = localStorage.getItem("mnrules.sound") === "1";
    $("sound").onchange = () => localStorage.setItem("mnrules.sound", $("sound").checked ? "1" : "0");
    const canNotify = typeof Notification !== "undefined";
    $("notify").hidden = !canNotify || Notification.permission !== "default";
    $("notify").onclick = async () => { await Notification.requestPermission(); $("notify").hidden = Notification.permission !== "default"; };
    function beep() {   // a short tone, no sound file
      try {
        const ctx = new AudioContext(); const o = ctx.createOscillator(); const g = ctx.createGain();
        o.frequency.value = 660; g.gain.value = 0.08; o.connect(g); g.connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.18);
      } catch (e) { /* no audio here */ }
    }
    // the turn signal: the tab's title while it is this link's turn; a sound and a
    // notification when it becomes so (each only if asked for)
    function signal() {
      const now = view.your_turn;
      document.title = now ? "\u25b6 " + view.words.turn_title + " \u2014 " + title : title;
      document.body.dataset.turn = now ? "1" : "";
      if (now && !mine) {
        if ($("sound").checked) beep();
        if (canNotify && Notification.permission === "granted" && document.hidden) {
          try { new Notification(view.words.turn_title, { body: view.status }); } catch (e) { /* not in this browser */ }
        }
      }
      mine = now;
    }
    async function load(data) {
      const before = view && view.version;
      view = data || await api(base);
      picked = []; if (view.version !== before) narrowed = "";
      draw();
    }
    function draw() {
      document.body.dataset.version = view.version;
      $("you").textContent = view.you.join(", ");
      $("status").textContent = view.status;
      $("undo").textContent = view.words.undo; $("undo").disabled = !view.can_undo;
      $("watch").hidden = !view.watch; if (view.watch) { $("watch").href = view.watch; $("watch").textContent = view.words.form_watch || ""; }
      $("undoWhy").textContent = view.undo_why || ""; $("undo").title = view.undo_why || "";
      $("signal").hidden = view.over || view.you.length === 0 || !view.words.turn_title || view.role === "watch";
      $("optionsTitle").textContent = view.words.options; $("logTitle").textContent = view.words.log;
      $("save").textContent = view.words.save; if (view.words.download_log) $("logfile").textContent = view.words.download_log;
      relabel(view.words, view.lang);
      signal();
      const board = $("board");
      if (board.dataset.svg !== view.board) { board.innerHTML = view.board; board.dataset.svg = view.board; zoomBoard(); }
      renderTable(view.table, $("table"));
      renderLog(view.log);
      drawOptions();
    }
    function matches(o) { return picked.every((a) => o.places.includes(a)); }
    // many choices in groups (a payment's combinations, by their first goods): a first
    // step narrows them to one group, the second picks one of its choices
    let narrowed = "";
    function narrowing(box) {
      const sizes = {}; view.options.forEach((o) => { sizes[o.group] = (sizes[o.group] || 0) + 1; });
      const groups = Object.keys(sizes).filter((g) => g);
      if (view.options.length <= 12 || groups.length < 2 || !groups.some((g) => sizes[g] > 1)) { narrowed = ""; return; }
      if (!groups.includes(narrowed)) narrowed = "";
      const label = el("label", (view.words.options_narrow || "") + " ", "narrow");
      const pickGroup = el("select"); pickGroup.id = "narrow";
      const all = el("option", view.words.options_all || ""); all.value = ""; pickGroup.append(all);
      groups.forEach((g) => { const o = el("option", g + " (" + sizes[g] + ")"); o.value = g; pickGroup.append(o); });
      pickGroup.value = narrowed;
      pickGroup.onchange = () => { narrowed = pickGroup.value; drawOptions(); const f = $("options").querySelector("button.option"); if (f && narrowed) f.focus(); };
      label.append(pickGroup); box.append(label);
    }
    function drawOptions() {
      const box = $("options"); box.replaceChildren();
      narrowing(box);
      let group = null;
      view.options.forEach((o) => {
        if (narrowed && o.group !== narrowed) return;
        if (o.group !== group) { group = o.group; if (group) box.append(el("div", group, "group")); }
        const b = el("button", o.text); b.dataset.key = o.key; b.className = "option" + (matches(o) ? "" : " dim");
        b.onclick = () => choose(o.key); box.append(b);
      });
      const legal = new Set(); view.options.filter(matches).forEach((o) => o.places.forEach((p) => legal.add(p)));
      document.querySelectorAll("#board .area").forEach((a) => {
        const name = a.dataset.area;
        a.classList.toggle("legal", legal.has(name)); a.classList.toggle("picked", picked.includes(name));
        a.onclick = legal.has(name) ? () => pick(name) : null;
        // a legal area is a button for the keyboard too (the options list says the same)
        if (legal.has(name)) { a.setAttribute("tabindex", "0"); a.setAttribute("role", "button"); a.onkeydown = (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(name); } }; }
        else { a.removeAttribute("tabindex"); a.removeAttribute("role"); a.onkeydown = null; }
      });
    }
    function pick(area) {
      if (picked.includes(area)) picked = picked.filter((a) => a !== area); else picked.push(area);
      const left = view.options.filter(matches);
      if (left.length === 1 && picked.length) return choose(left[0].key);
      const exact = left.filter((o) => o.places.length === picked.length && picked.every((a, i) => o.places[i] === a));
      if (exact.length === 1 && left.every((o) => o.places.length <= picked.length)) return choose(exact[0].key);
      drawOptions();
    }
    async function choose(key) {
      showError();
      try { await load(await api(base + "/choose", { key: key, version: view.version })); } catch (e) { showError(e); await load(); }
    }
    $("undo").onclick = async () => { showError(); try { await load(await api(base + "/undo", {})); } catch (e) { showError(e); } };
    await load();
    setInterval(async () => { try { const v = await api(base); if (v.version !== view.version) await load(v); } catch (e) { /* the server may be gone */ } }, 1500);
  }

  // -- replay ---------------------------------------------------------------------------
  async function replay() {
    let id = null, info = null, step = 0;
    async function go(n) {
      if (!id) return;
      showError();
      try {
        info = await api(`/api/replays/${id}?step=${n}`); step = info.step;
        $("where").textContent = info.where || `${info.step} / ${info.steps} (round ${info.round})`;
        $("divergence").textContent = info.divergence || "";   // where the log leaves the rules
        relabel(info.words || {}, info.lang);   // the page in the log's language
        $("board").innerHTML = info.board; zoomBoard(); renderLog(info.log); renderTable(info.table, $("table"));
      } catch (e) { showError(e); }
    }
    $("open").onclick = async () => {
      showError(); const f = $("logfile").files[0]; if (!f) return;
      try { const r = await api("/api/replays", { log: await f.text() }); id = r.id; await go(0); } catch (e) { showError(e); }
    };
    scrollable($("board")); zoomable($("board"));
    $("next").onclick = () => go(step + 1);
    $("prev").onclick = () => go(step - 1);
    $("nextRound").onclick = () => { const r = info.rounds.find((s) => s > step); go(r === undefined ? info.steps : r); };
    $("prevRound").onclick = () => { const r = info.rounds.filter((s) => s < step).pop(); go(r === undefined ? 0 : r); };
  }

  // -- card editor ----------------------------------------------------------------------
  async function editor() {
    let timer = null;
    // every bundled edition of every game, the English one first chosen
    const info = await api("/api/editions"), ed = $("edition");
    info.editions.forEach((e) => { const o = el("option", e.name); o.value = e.id; ed.append(o); });
    if (info.editions.some((e) => e.id === "en")) ed.value = "en";
    ed.onchange = () => check();
    async function check() {
      const text = $("card").value;
      try {
        const r = await api("/api/cards/check", { text: text, edition: $("edition").value });
        $("highlight").innerHTML = r.highlight;   // the server escaped every character
        $("state").textContent = r.ok ? "ok" : "";
        $("errors").textContent = r.errors.map((e) => e.message).join("\n\n");
        $("explain").textContent = r.explanation.join("\n");
      } catch (e) { $("errors").textContent = String(e.message || e); $("highlight").textContent = text; }
    }
    $("card").oninput = () => { clearTimeout(timer); timer = setTimeout(check, 250); };
    $("try").onclick = async () => {
      try {
        const whole = (id, d) => { const n = parseInt($(id).value, 10); return Number.isInteger(n) ? n : d; };
        const r = await api("/api/cards/try", { text: $("card").value, edition: $("edition").value, position: $("position").value,
          forced: $("forced").value, seed: whole("seed", 1), rounds: whole("rounds", 2) });
        renderLog(r.ok ? r.log : r.errors.map((e) => e.message));
        // each line where the card's rules fired stands out
        $("log").querySelectorAll("div").forEach((d) => { if (d.textContent.startsWith("\u2605")) d.className = "fired"; });
      } catch (e) { renderLog([String(e.message || e)]); }
    };
    await check();
  }
  // -- design: a simulation with a progress bar ------------------------------------------
  async function design() {
    function chart(rates) {
      const svg = $("chart"); svg.replaceChildren(); const ns = "http://www.w3.org/2000/svg";
      const names = Object.keys(rates); svg.setAttribute("height", String(names.length * 24 + 4));
      names.forEach((p, i) => {
        const r = document.createElementNS(ns, "rect"); r.setAttribute("x", "110"); r.setAttribute("y", String(i * 24 + 2));
        r.setAttribute("width", String(Math.round(rates[p] * 400))); r.setAttribute("height", "18"); r.setAttribute("fill", "#8d6e63"); svg.append(r);
        const t = document.createElementNS(ns, "text"); t.setAttribute("x", "0"); t.setAttribute("y", String(i * 24 + 16));
        t.textContent = p + " " + Math.round(rates[p] * 100) + "%"; svg.append(t);
      });
    }
    // the same editions and player counts as a new game offers, by their names
    const info = await api("/api/editions"); const ed = $("edition"), players = $("players");
    info.editions.forEach((e) => { const o = el("option", e.name); o.value = e.id; ed.append(o); });
    if (info.editions.some((e) => e.id === "en")) ed.value = "en";
    function counts() {
      const e = info.editions.find((x) => x.id === ed.value); const keep = players.value; players.replaceChildren();
      Object.keys(info.games[e.game].seating).forEach((n) => { const o = el("option", n); o.value = n; players.append(o); });
      players.value = keep && [...players.options].some((o) => o.value === keep) ? keep : players.options[players.options.length - 1].value;
    }
    ed.onchange = counts; counts();
    $("run").onclick = async () => {
      showError(); $("report").textContent = "";
      try {
        let s = await api("/api/simulations", { edition: $("edition").value, players: Number($("players").value), games: Number($("games").value), bots: $("bots").value, seed: Number($("seed").value) });
        while (!s.finished) {
          $("progress").max = s.total; $("progress").value = s.done; $("count").textContent = `${s.done} / ${s.total}`;
          await new Promise((ok) => setTimeout(ok, 300)); s = await api(`/api/simulations/${s.id}`);
        }
        $("progress").value = s.total; $("count").textContent = `${s.done} / ${s.total}`;
        if (s.error) showError(s.error); $("report").textContent = s.report; chart(s.rates);
      } catch (e) { showError(e); }
    };
  }
  // -- lobby: the open games, their free seats to join, a spectator's link -----------------
  async function lobby() {
    const asked = new URLSearchParams(location.search).get("lang") || (navigator.language || "en").split("-")[0];
    async function list() {
      showError();
      try {
        const r = await api("/api/lobby?lang=" + encodeURIComponent(asked)); const w = r.words;
        relabel(w, r.lang);
        const box = $("games"); box.replaceChildren();
        if (!r.games.length) box.append(el("p", w.lobby_none, "none"));
        r.games.forEach((g) => {
          const sec = el("section", undefined, "game"); sec.dataset.game = g.game;
          const h = el("h2", g.edition); sec.append(h);
          const ul = el("ul");
          g.players.forEach((p) => {
            const li = el("li", p.name + " \u2014 " + (p.kind === "free" ? w.lobby_free : p.kind === "bot" ? w.lobby_bot : w.lobby_human) + " ");
            if (p.kind === "free") {
              const b = el("button", w.lobby_join, "join"); b.type = "button"; b.dataset.player = p.id;
              b.setAttribute("aria-label", w.lobby_join + ": " + p.name);
              b.onclick = async () => {
                showError();
                try { const j = await api(`/api/lobby/${g.game}/join`, { player: p.id, lang: r.lang }); location.href = j.link; } catch (e) { showError(e); await list(); }
              };
              li.append(b);
            }
            ul.append(li);
          });
          sec.append(ul);
          if (g.watch) { const a = el("a", w.lobby_watch, "watch"); a.href = g.watch; sec.append(a); }
          box.append(sec);
        });
      } catch (e) { showError(e); }
    }
    $("refresh").onclick = list;
    await list();
    setInterval(list, 10000);
  }
  return { index, play, replay, editor, design, lobby };
})();
// each page names its part in its body (no script in the page: the content security
// policy allows none)
{ const page = document.body.dataset.page; if (page && MN[page]) MN[page](); }
