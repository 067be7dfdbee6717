/* play.html and check.html: load the model into Pyodide and move JSON strings to and from
   comet.site.webbridge.  No rule is written here: every move is checked by the model. */
(function () {
  "use strict";
  var root = document.currentScript.src.replace(/assets\/play\.js.*$/, "");
  var bridge = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  var SUIT = { C: ["\u2663", "clubs", false], D: ["\u2666", "diamonds", true], H: ["\u2665", "hearts", true], S: ["\u2660", "spades", false] };
  var RANK = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  function cardWords(t, wild, wildName) {
    var r = t.slice(0, -1), s = SUIT[t.slice(-1)] || ["?", t.slice(-1), false];
    return (RANK[r] || r) + " of " + s[1] + (wild.indexOf(t) >= 0 ? ", the " + wildName : "");
  }
  function cardFace(t, wild, wildName, tag) {
    var s = SUIT[t.slice(-1)] || ["?", "", false];
    var cls = "card" + (s[2] ? " red" : "") + (wild.indexOf(t) >= 0 ? " wild" : "");
    var e = el(tag, { "class": cls, "aria-label": cardWords(t, wild, wildName) }, [t.slice(0, -1)]);
    e.appendChild(el("span", { "aria-hidden": "true" }, [s[0]]));
    if (tag === "span") e.setAttribute("role", "img");
    return e;
  }

  function load(done) {
    if (location.protocol === "file:") { $("needs").hidden = false; $("loading").textContent = ""; return; }
    if (typeof loadPyodide === "undefined") {
      var s = document.createElement("script");
      s.src = root + "assets/pyodide/pyodide.js";
      s.onload = function () { load(done); };
      s.onerror = function () { $("loading").textContent = "The rules could not be loaded (assets/pyodide is missing)."; };
      document.head.appendChild(s);
      return;
    }
    loadPyodide({ indexURL: root + "assets/pyodide/" }).then(function (py) {
      return fetch(root + "assets/comet-core.zip").then(function (r) { return r.arrayBuffer(); }).then(function (buf) {
        py.unpackArchive(buf, "zip", { extractDir: "/home/pyodide/core" });
        py.runPython("import sys; sys.path.insert(0, '/home/pyodide/core')");
        bridge = py.pyimport("comet.site.webbridge");
        $("loading").textContent = "The rules are loaded.";
        done();
      });
    }).catch(function (e) { $("loading").textContent = "The rules could not be loaded: " + e; });
  }

  /* ---------------------------------------------------------------- play.html */
  function play() {
    var offer = JSON.parse($("offer").textContent), presets = [];
    function fillPlayers() {
      var p = presets.filter(function (x) { return x.name === $("preset").value; })[0];
      $("players").textContent = "";
      if (!p) return;
      p.players.forEach(function (n) {
        var o = el("option", { value: String(n) }, [String(n)]);
        if (n === p.usual) o.selected = true;
        $("players").appendChild(o);
      });
      var box = $("readings");
      box.textContent = "";
      (offer[p.name] || []).forEach(function (r, i) {
        var id = "r" + i, sel = el("select", { id: id, "data-field": r.field });
        r.readings.forEach(function (x, k) { sel.appendChild(el("option", { value: JSON.stringify(x.value) }, [x.label + (k === 0 ? " (this game's reading)" : "")])); });
        var lab = el("label", { "for": id }, [r.ruling ? r.ruling + " " : "", el("code", {}, [r.field])]);
        box.appendChild(el("p", {}, [lab, el("br"), sel]));
      });
    }
    function show(v) {
      if (v.error) { $("refused").textContent = v.error; return; }
      $("table").hidden = false;
      var st = v.names.map(function (n, i) { return n + (i === v.you ? " (you)" : "") + ": " + v.counts[i] + " cards, " + (v.totals[i] >= 0 ? "+" : "") + v.totals[i]; }).join(" \u00b7 ");
      var run = v.run.length ? "The run: " + v.run.join(", ") + (v.need ? "; it needs a " + v.need + "." : ".") : "No run: the next play starts one.";
      $("state").textContent = (v.over ? "The deal is over. " : v.names[v.to_move] + " to move. ") + run + " " + st + ". Dead hand: " + v.dead + " cards.";
      $("refused").textContent = v.refused ? "Refused: " + v.refused.rule + ": " + v.refused.message : "";
      var hand = $("hand"); hand.textContent = "";
      v.hand.forEach(function (c) {
        var b = cardFace(c, v.wild, v.wild_name, "button");
        b.type = "button";
        b.dataset.card = c;
        b.disabled = v.over;
        b.addEventListener("click", function () {
          /* the model decides: a Comet whose rank is not yet named is offered with its ranks below */
          var options = v.legal.filter(function (a) { return a === "play " + c || a.indexOf("play " + c + " as ") === 0; });
          send(options.length === 1 ? options[0] : "play " + c);
        });
        hand.appendChild(b);
      });
      var legal = $("legal"); legal.textContent = "";
      v.legal.forEach(function (a) {
        var b = el("button", { type: "button", "class": "move", "data-action": a }, [a === "pass" ? "say \u201cwithout\u201d / pass" : a.replace(/^play /, "play ")]);
        b.addEventListener("click", function () { send(a); });
        legal.appendChild(b); legal.appendChild(document.createTextNode(" "));
      });
      if (!v.legal.length) legal.appendChild(el("p", {}, [v.over ? "None: the deal is over." : "None: wait for your turn."]));
      var log = $("log"); log.textContent = "";
      v.log.forEach(function (line) { log.appendChild(el("li", {}, [line])); });
      var res = $("result"); res.textContent = "";
      if (v.over) {
        res.appendChild(el("h2", {}, ["The result"]));
        res.appendChild(el("p", { id: "winner" }, [v.winner >= 0 ? v.names[v.winner] + " went out first and wins the deal." : "The deal is drawn."]));
        var ul = el("ul", {});
        v.names.forEach(function (n, i) { ul.appendChild(el("li", {}, [n + ": " + (v.totals[i] >= 0 ? "+" : "") + v.totals[i]])); });
        res.appendChild(ul);
        res.appendChild(el("p", {}, ["The deal as a record (check it on the ", el("a", { href: root + "check.html" }, ["record checker"]), " or with comet replay):"]));
        res.appendChild(el("pre", { id: "record-out" }, [JSON.stringify(v.record)]));
      }
    }
    function send(text) { show(JSON.parse(bridge.move(text))); }
    $("preset").addEventListener("change", fillPlayers);
    $("setup").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var rulings = {};
      document.querySelectorAll("#readings select").forEach(function (s) {
        if (s.selectedIndex > 0) rulings[s.dataset.field] = JSON.parse(s.value);
      });
      show(JSON.parse(bridge.new_deal(JSON.stringify({ preset: $("preset").value, players: +$("players").value, seed: +$("seed").value || 1, rulings: rulings }))));
    });
    load(function () {
      presets = JSON.parse(bridge.presets());
      fillPlayers();
      $("start").disabled = false;
      var q = new URLSearchParams(location.search);
      if (q.get("preset")) { $("preset").value = q.get("preset"); fillPlayers(); }
      var w = null;
      try { w = q.get("witness") ? JSON.parse(sessionStorage.getItem("comet-witness") || "null") : null; } catch (e) { w = null; }
      if (w) {
        /* a ruling's witness deal, under the reading chosen there: the same cards, you at the first seat to move */
        $("preset").value = w.preset; fillPlayers();
        $("witness-note").textContent = "The witness deal of a ruling, under " + (Object.keys(w.rulings).length ? "reading B (" + JSON.stringify(w.rulings) + ")" : "reading A (this game's)") + ".";
        show(JSON.parse(bridge.new_deal(JSON.stringify(w))));
      }
    });
  }

  /* ---------------------------------------------------------------- check.html */
  function check() {
    $("check").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var r = JSON.parse(bridge.check($("record").value));
      var v = $("verdict");
      v.className = "verdict " + (r.exit === 0 ? "ok" : "bad");
      v.textContent = r.exit === 0 ? "Legal (comet replay exits 0)." : r.exit === 1 ? "Illegal (comet replay exits 1)." : "Malformed (comet replay exits 2): " + r.stderr;
      v.dataset.exit = String(r.exit);
      $("output").textContent = r.stdout;
    });
    load(function () { $("run").disabled = false; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if ($("setup")) play();
    if ($("check")) check();
  });
})();
