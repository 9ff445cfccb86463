// grognard pages: plain ES modules, no build step. Names and every text from the server are written with
// textContent; only the server-made SVG picture of a rule set without a face is inserted as markup. A rule
// set with a face sends its scene (inches): static/table.js draws it. The modules, by concept:
//   page.js        what every page shares (elements, the message line, storage, posting, events, tables)
//   home.js        the home page
//   state.js       what a room page's modules share (its role, room and the state it holds)
//   connection.js  the WebSocket, the state's patches, the outbox of orders
//   panels.js      beside the table: the status line, tables, count, events, debrief, projector's join
//   orders.js      a player's orders as forms and buttons, the preview below the form
//   gestures.js    the player's hands on the table: tap, drag, pick a man, a template's turn, the tip box
//   picture.js     the server-made picture of a rule set without a face
//   host.js        the host's page
import { $ } from "./page.js";
import { home } from "./home.js";
import { role, S } from "./state.js";
import { start } from "./connection.js";
import { drawPanels, startPanels } from "./panels.js";
import { drawPlayer } from "./orders.js";
import { ensureTable } from "./gestures.js";
import { pictureHands, showSvg } from "./picture.js";
import { drawHost, hostControls } from "./host.js";

// a state of the room (whole, or patched into the last): drawn
export function draw(s) {
  drawPanels(s);
  // a preview's picture stays while the game has not changed since it was asked for (a state sent again:
  // a player joined, the live odds came)
  if (S.shown && S.shown.step !== s.step) { S.shown = null; delete $("svg").dataset.preview; }
  if (s.scene !== undefined && ensureTable(s)) {
    S.tableView.draw(s.scene, s.sides);
    // the pointer's box and the preview drawn stay while their decision is owed (others play on meanwhile)
  } else if (s.svg !== undefined) showSvg(S.shown ? S.shown.svg : s.svg, s.marks);
  if (role === "player") drawPlayer(s);
  if (role === "host") drawHost(s);
}

if (role === "index") home();
else {
  if (role === "host") hostControls();
  pictureHands();
  startPanels();
  start();
}
