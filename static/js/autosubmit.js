// A <select data-autosubmit> submits its form as soon as it changes (the interface
// language in the footer). Kept out of the page because the Content-Security-Policy
// allows no inline event handlers; without JavaScript the form's own button shows.
document.addEventListener("change", (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.hasAttribute("data-autosubmit") && select.form) {
    select.form.submit();
  }
});
