// grognard's home page: make a game (the host), play solo, join one, or watch a saved game's replay
import { $, el, say, store, post } from "./page.js";
import { wireTrials } from "./trials.js";

export function home() {
  const showOptions = () => {
    for (const box of document.querySelectorAll("fieldset.options")) box.hidden = box.dataset.ruleset !== $("ruleset").value;
  };
  const showSides = () => {  // the solo game's side: those of the rule set chosen
    const chosen = $("ruleset").selectedOptions[0];
    const side = $("solo-side");
    if (!side || !chosen) return;
    side.textContent = "";
    for (const name of (chosen.dataset.sides || "").split(" ").filter((x) => x)) side.appendChild(el("option", name.charAt(0).toUpperCase() + name.slice(1), { value: name }));
  };
  const showLevel = () => {  // the line a player reads about the level chosen
    const sel = $("solo-level");
    const chosen = sel && sel.selectedOptions[0];
    if (sel) $("solo-level-note").textContent = chosen ? chosen.value + ": " + chosen.dataset.note : "";
  };
  const showLevels = () => {  // the solo game's opponents: the levels of the rule set chosen, weakest first
    const chosen = $("ruleset").selectedOptions[0];
    const sel = $("solo-level");
    if (!sel || !chosen) return;
    sel.textContent = "";
    for (const [name, note] of JSON.parse(chosen.dataset.levels || "[]")) {
      sel.appendChild(el("option", name, { value: name, "data-note": note, selected: name === chosen.dataset.level }));
    }
    showLevel();
  };
  $("ruleset").addEventListener("change", () => { showOptions(); showSides(); showLevels(); });
  if ($("solo-level")) $("solo-level").addEventListener("change", showLevel);
  showOptions();
  showSides();
  showLevels();
  const optionsOf = (f) => {
    const options = {};
    const box = document.querySelector('fieldset.options[data-ruleset="' + f.ruleset.value + '"]');
    for (const input of box ? box.querySelectorAll("[data-option]") : []) {
      const value = input.type === "checkbox" ? (input.checked ? "on" : "off") : input.value.trim();
      if (value !== "") options[input.dataset.option] = value;
    }
    return options;
  };
  // a file of one's own (a scenario TOML) for the rule set chosen: sent whole with the new game
  const uploadOf = async (f) => {
    const box = document.querySelector('fieldset.options[data-ruleset="' + f.ruleset.value + '"]');
    const input = box ? box.querySelector("input[type=file][data-upload]") : null;
    const file = input && input.files && input.files[0];
    return file ? { name: file.name, text: await file.text() } : null;
  };
  // a file of one's own tested or balanced before it is played (static/trials.js)
  for (const box of document.querySelectorAll("fieldset.options")) {
    const part = (what) => box.querySelector('[data-trial="' + what + '"]');
    if (!part("box")) continue;
    wireTrials({
      ruleset: () => box.dataset.ruleset, test: part("test"), balance: part("balance"), games: part("games"), box: part("box"),
      source: () => uploadOf({ ruleset: { value: box.dataset.ruleset } }), options: () => optionsOf($("create-form")),
    });
  }
  $("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    try {
      const made = await post("/api/rooms", { ruleset: f.ruleset.value, options: optionsOf(f), dice: f.dice.value, upload: await uploadOf(f) });
      store.set("grognard:host:" + made.code, made.host_token);
      location.href = "/host/" + made.code;
    } catch (err) { say(err.message, "error"); }
  });
  // play solo: one request makes the game, seats you on your side, gives the rest to bots and starts it
  if ($("solo-start")) $("solo-start").addEventListener("click", async () => {
    const f = $("create-form");
    const name = $("solo-name").value.trim() || "Solo player";
    try {
      const made = await post("/api/rooms", {
        ruleset: f.ruleset.value, options: optionsOf(f), dice: "seeded", solo: { name, side: $("solo-side").value },
        level: $("solo-level").value || undefined, upload: await uploadOf(f),
      });
      store.set("grognard:host:" + made.code, made.host_token);
      store.set("grognard:player:" + made.code, made.token);
      location.href = made.play_url;
    } catch (err) { say(err.message, "error"); }
  });
  // a saved game record, replayed by the server (every die and digest checked): refused with one line
  $("replay-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const file = $("replay-file").files[0];
    if (!file) { say("Choose a game record (.jsonl) first.", "error"); return; }
    say("Reading the record...", "");
    try {
      const response = await fetch("/api/replays?name=" + encodeURIComponent(file.name), { method: "POST", body: file, headers: { "Content-Type": "application/x-ndjson" } });
      const answer = await response.json().catch(() => ({ message: "the server did not answer" }));
      if (!response.ok) throw new Error(answer.message || "refused");
      location.href = answer.url;
    } catch (err) { say("Refused: " + file.name + ": " + err.message, "error"); }
  });
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    const room = f.code.value.trim().toUpperCase();
    try {
      const joined = await post("/api/rooms/" + encodeURIComponent(room) + "/join", { name: f.name.value });
      store.set("grognard:player:" + room, joined.token);
      location.href = "/play/" + room;
    } catch (err) { say(err.message, "error"); }
  });
}
