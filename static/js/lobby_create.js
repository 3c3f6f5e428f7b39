// The create-a-game form: the house select offers only the houses in play with the chosen player
// count (its data-seats: {count: [[id, name], ...]}, made by game.site.forms.LobbyCreateForm) and
// is updated when the count changes; a house no longer in play falls back to the first choice
// (random). The server checks the pair again on submit.
const players = document.getElementById("id_players");
const house = document.getElementById("id_house");

function offer() {
  let seats;
  try {
    seats = JSON.parse(house.dataset.seats || "{}")[players.value];
  } catch {
    return;
  }
  if (!Array.isArray(seats)) return;
  const keep = house.value;
  house.replaceChildren(...seats.map(([id, name]) => new Option(name, id)));
  house.value = seats.some(([id]) => id === keep) ? keep : seats[0][0];
}

if (players && house && players.tagName === "SELECT") {
  players.addEventListener("change", offer);
  offer();
}
