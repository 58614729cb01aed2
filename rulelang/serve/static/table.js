// A game's page: fetch this seat's table (HTML the server draws from the
// seat's view), swap it in, post the move of a clicked button, and fetch
// again whenever the live connection says the game has a new version.
// The token of the seat this browser joined is kept in localStorage.
"use strict";
(function () {
  var game = document.body.dataset.game;
  var tokenKey = "rulelang-seat-" + game;
  var token = localStorage.getItem(tokenKey);
  var box = document.getElementById("table");
  var errorLine = document.getElementById("error");
  var version = -1;
  var busy = false;

  function headers() {
    var h = {"Content-Type": "application/json"};
    if (token) h["Authorization"] = "Bearer " + token;
    return h;
  }

  function showError(text) { errorLine.textContent = text || ""; }

  function refresh() {
    return fetch("/api/games/" + encodeURIComponent(game) + "/table", {headers: headers()})
      .then(function (r) {
        if (r.status === 401) {           // a token this game does not know: watch instead
          localStorage.removeItem(tokenKey);
          token = null;
          return refresh();
        }
        if (!r.ok) return r.json().then(function (e) { showError(e.message); });
        version = Number(r.headers.get("X-Game-Version"));
        return r.text().then(function (html) {
          var opened = {};                // which folded piece sets the reader opened or closed
          box.querySelectorAll("details[data-set]").forEach(function (d) { opened[d.dataset.set] = d.open; });
          box.innerHTML = html;           // the server's HTML: every text in it is escaped
          box.querySelectorAll("details[data-set]").forEach(function (d) {
            if (d.dataset.set in opened) d.open = opened[d.dataset.set];
          });
          var t = box.querySelector(".table");
          document.body.dataset.version = String(version);
          document.body.dataset.over = t ? t.dataset.over : "";
        });
      })
      .catch(function () { showError("The server cannot be reached."); });
  }

  box.addEventListener("click", function (ev) {
    var j = ev.target.closest("button.join");
    if (j && !busy) {                     // a spectator takes a free seat
      busy = true;
      showError("");
      fetch("/api/games/" + encodeURIComponent(game) + "/seats/" + j.dataset.seat, {
        method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"
      }).then(function (r) {
        return r.json().then(function (data) {
          if (!r.ok) { showError(data.message); return; }
          token = data.token;
          localStorage.setItem(tokenKey, token);
          location.reload();              // the live connection starts again with the token
        });
      }).catch(function () { showError("The server cannot be reached."); })
        .then(function () { busy = false; });
      return;
    }
    var b = ev.target.closest("button.move");
    if (!b || busy) return;
    busy = true;
    showError("");
    fetch("/api/games/" + encodeURIComponent(game) + "/moves", {
      method: "POST", headers: headers(),
      body: JSON.stringify({move: b.dataset.move, version: version})
    }).then(function (r) {
      if (!r.ok) return r.json().then(function (e) { showError(e.message); });
    }).catch(function () { showError("The server cannot be reached."); })
      .then(refresh).then(function () { busy = false; });
  });

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + "/api/games/" + encodeURIComponent(game) + "/live");
    ws.onopen = function () { ws.send(JSON.stringify({token: token})); };
    ws.onmessage = function (ev) {
      var m = JSON.parse(ev.data);
      if (m.error) { showError(m.message); return; }
      if (m.version !== version) refresh();
    };
    ws.onclose = function () { setTimeout(connect, 1000); };
  }

  refresh().then(connect);
})();
