// grognard room pages: what the page's modules share (the page's role, its room, the state it holds)
export const role = document.body.dataset.role;
export const code = document.body.dataset.code;
export const keyOf = (d) => d.seat + "|" + d.id;  // a decision's question, whatever its details

export const S = {
  token: null,  // this page's token (host, player or projector)
  seq: 0,  // the number of the page's last message asking something (a preview, an order)
  last: null,  // the state shown (patches merged into it)
  answered: null,  // the decision the message line's order answers: {key, step (from its ack), action, turn}
  pickers: {},  // per decision shown (its index): the move form that a click on the table fills
  shownDecisions: [],  // the decisions on the page: {id, seat, prompt, unit, controls, choices}
  shownId: null,  // the id of the decision whose controls are shown (one at a time)
  tableView: null,  // the table (static/table.js) of a rule set with a face
  asked: null,  // the preview asked from the table: {text, d, x, y (client), at (inches), via, n}
  tipFor: null,  // the decision ("seat|id") the pointer's box is about: it stays while that is owed
  picked: null,  // the man picked to act alone: {key ("seat|id" of the decision), id, c (his control)}
  shown: null,  // the preview drawn in a server-made picture: {svg, step}
};
