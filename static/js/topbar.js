// The site's top bar on narrow screens: the menu button opens and closes the menu (navigation,
// account, language). On wide screens the button is hidden and the menu always shows (site.css).
const button = document.getElementById("menu-toggle");
const menu = document.getElementById("topbar-menu");

if (button && menu) {
  const set = (open) => {
    menu.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => set(!menu.classList.contains("open")));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.classList.contains("open")) { set(false); button.focus(); }
  });
  document.addEventListener("click", (e) => {
    if (menu.classList.contains("open") && !menu.contains(e.target) && !button.contains(e.target)) set(false);
  });
}
