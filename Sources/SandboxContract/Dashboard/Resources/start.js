  function start() {
    $("advance-form").addEventListener("submit", (event) => {
      event.preventDefault();
      advance({ by: $("advance-by").value.trim() });
    });
    for (const button of document.querySelectorAll(".clock-form .quick")) {
      button.addEventListener("click", () => advance({ by: button.getAttribute("data-by") }));
    }
    $("next-event-button").addEventListener("click", () => advance({ to_next_event: true }));
    // On a phone the advance controls wait behind a toggle, so that the header stays small.
    $("clock-toggle").addEventListener("click", () => {
      const open = $("top").classList.toggle("clock-open");
      $("clock-toggle").setAttribute("aria-expanded", String(open));
    });
    for (const id of ["filter-merchant", "filter-status", "filter-country"]) $(id).addEventListener("change", refreshNow);
    for (const button of document.querySelectorAll("#actions button[data-action]")) {
      button.addEventListener("click", () => act(button.getAttribute("data-action")));
    }
    $("token-form").addEventListener("submit", useToken);
    window.addEventListener("hashchange", route);
    $("menu-toggle").addEventListener("click", () => showMenu(!$("top").classList.contains("nav-open")));
    document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshNow(); });
    setInterval(poll, POLL_MS);
    route();
  }

  window.CashoutDashboard = { hmacHex: hmacHex, refresh: refreshNow };
  start();
