// The lobby: create a game from a ruleset's form, join a free seat (the
// answer's secret token is kept in this browser's localStorage), go to it.
"use strict";
(function () {
  var errorLine = document.getElementById("error");

  function post(url, body) {
    return fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                       body: JSON.stringify(body)})
      .then(function (r) {
        return r.json().then(function (data) {
          if (!r.ok) throw new Error(data.message || "refused");
          return data;
        });
      });
  }

  function name() { return document.getElementById("name").value; }

  function join(game, seat) {
    return post("/api/games/" + encodeURIComponent(game) + "/seats/" + seat, {name: name()})
      .then(function (data) {
        localStorage.setItem("rulelang-seat-" + game, data.token);
        location.href = "/games/" + encodeURIComponent(game);
      });
  }

  function fail(e) { errorLine.textContent = e.message; }

  function showSeats(form) {
    var n = Number(form.querySelector("select[name=players]").value);
    form.querySelectorAll(".seat-choice").forEach(function (el) {
      el.hidden = Number(el.dataset.seat) >= n;
    });
  }

  document.querySelectorAll("form.new-game").forEach(function (form) {
    showSeats(form);
    form.querySelector("select[name=players]").addEventListener("change", function () { showSeats(form); });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      errorLine.textContent = "";
      var players = Number(form.querySelector("select[name=players]").value);
      var body = {ruleset: form.dataset.ruleset, players: players, options: {}, params: {}, bots: {}};
      form.querySelectorAll("select[data-option]").forEach(function (s) {
        if (s.value) body.options[s.dataset.option] = s.value;
      });
      form.querySelectorAll("input[data-param]").forEach(function (i) {
        if (i.value !== "") body.params[i.dataset.param] = Number(i.value);
      });
      var person = null;
      form.querySelectorAll("select[data-bot]").forEach(function (s) {
        var seat = Number(s.dataset.bot);
        if (seat >= players) return;
        if (s.value) body.bots[String(seat)] = s.value;
        else if (person === null) person = seat;
      });
      post("/api/games", body).then(function (g) {
        if (person === null) { location.href = "/games/" + encodeURIComponent(g.id); return; }
        return join(g.id, person);
      }).catch(fail);
    });
  });

  var games = document.querySelector("section.games");
  games.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.join");
    if (!b) return;
    errorLine.textContent = "";
    join(b.dataset.game, b.dataset.seat).catch(fail);
  });

  // The list of games, fetched again every few seconds (the server draws it).
  setInterval(function () {
    fetch("/lobby/games").then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null && html !== games.innerHTML) games.innerHTML = html;
      }).catch(function () {});
  }, 3000);
})();
