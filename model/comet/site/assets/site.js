/* Comet rulebook: the witness stepper and the search.  No rule of the game is written here: the
   stepper shows states, legal actions and payments the model computed when the site was built, and
   the search looks words up in the prebuilt index (assets/search-index.js). */
(function () {
  "use strict";
  var SUITS = { C: ["\u2663", "clubs", false], D: ["\u2666", "diamonds", true], H: ["\u2665", "hearts", true], S: ["\u2660", "spades", false] };
  var WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }

  function card(text, wild, wildName) {
    var rank = text.slice(0, -1), suit = SUITS[text.slice(-1)] || ["?", text.slice(-1), false];
    var words = (WORDS[rank] || rank) + " of " + suit[1];
    var cls = "card" + (suit[2] ? " red" : "");
    if (wild.indexOf(text) >= 0) { cls += " wild"; words += ", the " + (wildName || "Comet"); }
    return el("span", { "class": cls, role: "img", "aria-label": words }, [rank, el("span", { "aria-hidden": "true" }, [suit[0]])]);
  }

  function cards(list, wild, wildName) {
    var span = el("span", { "class": "hand" });
    list.forEach(function (c) { span.appendChild(card(c, wild, wildName)); });
    if (!list.length) span.appendChild(document.createTextNode("(none)"));
    return span;
  }

  function renderSide(box, side, k, data, label) {
    box.textContent = "";
    box.appendChild(el("h4", {}, [label]));
    if (side.refused) {
      box.appendChild(el("p", { "class": "refused" }, ["This reading refuses the deal itself: " + side.refused]));
      box.appendChild(el("output", { "class": "chips", "data-chips": "refused" }, []));
      box.classList.toggle("diff", k === data.diff_step);
      return;
    }
    var steps = side.steps, last = steps.length - 1, i = Math.min(k, last), st = steps[i];
    var names = side.names;
    if (k > last) box.appendChild(el("p", { "class": "stopped" }, ["This reading stopped at action " + last + "."]));
    box.appendChild(el("p", { "class": "said" }, [st.said + (st.played_on ? " (the deal played on by the simple players)" : "")]));
    if (i === data.diff_step && k === i) box.appendChild(el("p", { "class": "banner" }, ["First point of difference: " + data.detail]));
    if (st.error) box.appendChild(el("p", { "class": "error" }, ["Illegal under this reading: " + st.error.rule + " (" + st.error.message + ")"]));
    if (st.pays.length) {
      var ul = el("ul", { "class": "pays", "aria-label": "Payments made by this action" });
      st.pays.forEach(function (p) { ul.appendChild(el("li", {}, [names[p.payer] + " pays " + names[p.payee] + " " + p.amount + " (" + p.rule + ")"])); });
      box.appendChild(el("p", {}, ["Payments:"])); box.appendChild(ul);
    } else if (i > 0 && !st.error) {
      box.appendChild(el("p", {}, ["No payment."]));
    }
    var state = st.finished ? (st.drawn ? "The deal is drawn." : "The deal is over: " + names[st.winner] + " went out.")
      : (st.to_move === null ? "" : names[st.to_move] + " to move.");
    box.appendChild(el("p", {}, [state]));
    var run = el("p", {}, ["Run: "]);
    if (st.run.length) run.appendChild(document.createTextNode(st.run.join(", "))); else run.appendChild(document.createTextNode("none (a new run starts)"));
    box.appendChild(run);
    /* a points game (Commit, Red Nines, two-player Comet) scores points, computed by the model when the
       deal ends; its chips stay 0 and are shown beside them */
    var unit = side.points_unit, pts = unit && st.points;
    var tb = el("tbody");
    st.hands.forEach(function (h, s) {
      var row = [el("th", { scope: "row" }, [names[s]]), el("td", {}, [cards(h, side.wild, data.wild_name)]), el("td", {}, [String(st.chips[s])])];
      if (pts) row.push(el("td", {}, [String(pts[s])]));
      tb.appendChild(el("tr", {}, row));
    });
    var head = [el("th", { scope: "col" }, ["player"]), el("th", { scope: "col" }, ["hand"]), el("th", { scope: "col" }, ["chips"])];
    if (pts) head.push(el("th", { scope: "col" }, [unit + " this deal"]));
    box.appendChild(el("table", {}, [el("caption", {}, [pts ? "Hands, chips and " + unit + " after this step" : "Hands and chips after this step"]),
      el("thead", {}, [el("tr", {}, head)]), tb]));
    box.appendChild(el("p", {}, ["Chips: ", el("output", { "class": "chips", "data-chips": JSON.stringify(st.chips) }, [st.chips.join(" / ")])]));
    if (pts) box.appendChild(el("p", {}, [unit[0].toUpperCase() + unit.slice(1) + " this deal" + (st.finished ? "" : " (scored when it ends)") + ": ",
      el("output", { "class": "points", "data-points": JSON.stringify(pts) }, [pts.join(" / ")])]));
    if (st.legal.length && !st.error) {
      /* the other reading's list at the same step, to mark what only this reading allows (both lists
         were computed by the model at build time) */
      var other = data.sides[1 - data.sides.indexOf(side)], os = other && other.steps[Math.min(k, other.steps.length - 1)];
      var theirs = os && !os.error && k < other.steps.length ? os.legal : null;
      var p = el("p", { "class": "legal" }, ["Legal now (" + st.legal.length + "): "]);
      st.legal.forEach(function (a, n) {
        if (n) p.appendChild(document.createTextNode(", "));
        if (theirs && theirs.indexOf(a) < 0) p.appendChild(el("strong", { "class": "only", title: "legal only under this reading" }, [a + " (only here)"]));
        else p.appendChild(document.createTextNode(a));
      });
      box.appendChild(p);
    }
    if (st.why_not && k < steps.length) {
      /* plays the other reading allows here and this one refuses, with the rule the model names */
      var ul2 = el("ul", { "class": "whynot" });
      Object.keys(st.why_not).forEach(function (a) {
        var w = st.why_not[a];
        ul2.appendChild(el("li", {}, ["'" + a + "': illegal, " + w.rule + " (" + w.message + ")"]));
      });
      box.appendChild(el("p", { "class": "legal" }, ["Not legal under this reading (the other allows them):"]));
      box.appendChild(ul2);
    }
    box.classList.toggle("diff", k === data.diff_step);
  }

  function stepper(root) {
    if (root.getAttribute("data-ready")) return;
    root.setAttribute("data-ready", "1");
    var data = JSON.parse(document.getElementById(root.getAttribute("data-data")).textContent);
    var sides = root.querySelector(".sides"), boxes = root.querySelectorAll(".side");
    var total = Math.max.apply(null, data.sides.map(function (s) { return s.steps.length ? s.steps.length - 1 : 0; }));
    var items = root.querySelectorAll("ol.actions li");
    var k = 0;
    var labels = data.labels || ["A, this game's reading: " + (data.a_label || data.field + " = " + data.a), "B: " + (data.b_label || data.field + " = " + data.b)];
    sides.hidden = false;
    function show() {
      var had = root.contains(document.activeElement);
      boxes.forEach(function (b, n) { renderSide(b, data.sides[n], k, data, labels[n]); });
      items.forEach(function (li, n) { li.classList.toggle("current", n + 1 === k); });
      root.querySelector(".status").textContent = "Step " + k + " of " + total + (k === data.diff_step ? " (first difference)" : "");
      root.querySelector("[data-go=first]").disabled = root.querySelector("[data-go=prev]").disabled = k === 0;
      root.querySelector("[data-go=next]").disabled = root.querySelector("[data-go=last]").disabled = k >= total;
      root.setAttribute("data-step", String(k));
      /* a button that just became disabled loses the focus: hand it to one that still works */
      var f = document.activeElement;
      if (had && (!root.contains(f) || f.disabled)) {
        var other = root.querySelector(k === 0 ? "[data-go=next]" : "[data-go=prev]");
        if (other && !other.disabled) other.focus();
      }
    }
    root.querySelectorAll("button[data-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        var go = b.getAttribute("data-go");
        k = go === "first" ? 0 : go === "prev" ? Math.max(0, k - 1) : go === "next" ? Math.min(total, k + 1) : total;
        show();
      });
    });
    root.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowRight") { k = Math.min(total, k + 1); show(); }
      else if (ev.key === "ArrowLeft") { k = Math.max(0, k - 1); show(); }
    });
    show();
  }

  function words(s) { return s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").split(/[^a-z0-9\u00df:-]+/).filter(Boolean); }

  function search() {
    var input = document.getElementById("q"), out = document.getElementById("results"), count = document.getElementById("count");
    var index = window.COMET_INDEX || [];
    var prepared = index.map(function (e) {
      /* the id's parts count as title words: "Comet lead" finds RUL-COMET-LEAD by its name */
      return { e: e, id: e.id.toLowerCase(), title: " " + words(e.id + " " + e.id.replace(/-/g, " ") + " " + e.title).join(" ") + " ",
               hay: " " + words(e.id + " " + e.title + " " + e.text).join(" ") + " " };
    });
    function snippet(text, term) {
      var at = text.toLowerCase().indexOf(term);
      if (text.length <= 220) return text;
      if (at < 80) return text.slice(0, 220) + "\u2026";
      return "\u2026" + text.slice(at - 80, at + 140) + "\u2026";
    }
    function run() {
      var q = input.value.trim(), terms = words(q);
      out.textContent = "";
      if (!terms.length) { count.textContent = ""; return; }
      var hits = [];
      prepared.forEach(function (p) {
        var score = 0;
        if (p.id === q.toLowerCase()) score += 100;
        /* a title that is the query, or holds every word of it, ranks first */
        if (p.title.trim() === terms.join(" ")) score += 60;
        else if (terms.every(function (t) { return p.title.indexOf(" " + t) >= 0; })) score += 20;
        var all = terms.every(function (t) { return p.hay.indexOf(" " + t) >= 0; });
        if (!all && score === 0) return;
        terms.forEach(function (t) {
          if (p.hay.indexOf(" " + t + " ") >= 0) score += 2; else if (p.hay.indexOf(" " + t) >= 0) score += 1;
          if (p.title.indexOf(" " + t) >= 0) score += 3;
        });
        if (p.e.kind !== "source") score += 0.5;
        hits.push([score, p.e]);
      });
      hits.sort(function (a, b) { return b[0] - a[0]; });
      count.textContent = hits.length + (hits.length === 1 ? " result" : " results") + " for \u201c" + q + "\u201d" + (hits.length > 100 ? " (first 100 shown)" : "");
      hits.slice(0, 100).forEach(function (h) {
        var e = h[1], snip = snippet(e.text, terms[0]);
        out.appendChild(el("li", {}, [el("a", { href: e.url }, [e.id + " \u2014 " + e.title]), " ", el("span", { "class": "kind" }, ["(" + e.kind + ")"]), el("span", { "class": "snip" }, [snip])]));
      });
    }
    var q = new URLSearchParams(window.location.search).get("q");
    if (q) input.value = q;
    input.addEventListener("input", run);
    input.form.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
    run();
  }

  document.addEventListener("DOMContentLoaded", function () {
    /* a witness is drawn when its box is opened (or is open from the start) */
    document.querySelectorAll("details.witness").forEach(function (d) {
      var root = d.querySelector(".stepper");
      if (d.open) stepper(root);
      d.addEventListener("toggle", function () { if (d.open) stepper(root); });
    });
    if (document.getElementById("results")) search();
    /* "play this deal yourself": the witness and the reading go to play.html through sessionStorage */
    document.querySelectorAll("button.play-it").forEach(function (b) {
      b.addEventListener("click", function () {
        var w = JSON.parse(b.getAttribute("data-play"));
        if (b.getAttribute("data-reading") === "b") w.rulings = w.b;
        delete w.b;
        try { sessionStorage.setItem("comet-witness", JSON.stringify(w)); } catch (e) { /* private mode: plain deal */ }
        location.href = b.closest("main").querySelector(".play-witness a").getAttribute("href") + "?witness=1";
      });
    });
    /* a region that still scrolls sideways (a wide table on a phone) can be reached by keyboard */
    document.querySelectorAll("main table, main pre, main .scroll").forEach(function (t) {
      if (t.scrollWidth > t.clientWidth + 1 && !t.hasAttribute("tabindex")) {
        t.setAttribute("tabindex", "0");
        if (!t.hasAttribute("role") && t.tagName !== "TABLE") t.setAttribute("role", "region");
        if (!t.hasAttribute("aria-label")) t.setAttribute("aria-label", "scrollable content");
      }
    });
    window.addEventListener("beforeprint", function () { document.querySelectorAll("details").forEach(function (d) { d.open = true; }); });
  });
})();
