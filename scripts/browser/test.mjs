// Drives headless Chromium against a running `pbrain-tengen serve` (scripts/browser-test.sh starts it):
// plays a short renju game by clicking, checks that a forbidden point is marked and cannot be played, runs an
// analysis until a best move appears, saves a screenshot, negotiates RIF's opening stones by clicking, shows the
// threats and a winning line stone by stone, evaluates a game for the graph, navigates the move list, downloads
// the SGF, opens a RenLib library as a tree (follows a variation, reads a comment, adds a variation with a comment,
// moves between variations by the keys, saves the library), and checks the page on a phone-sized screen. Prints
// what it saw; exits 1 with the reason when a check fails.
// Usage: node test.mjs URL SCREENSHOT.png
import { chromium } from "playwright-core";

const [url, shot] = process.argv.slice(2);
const fail = (why) => { console.log(`browser test failed: ${why}`); process.exit(1); };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  page.on("pageerror", (e) => fail(`the page threw: ${e.message}`));
  const stones = () => page.locator("circle.stone").count();
  const status = () => page.locator("#status").textContent();
  // The point (column letter, row) of a 15x15 board in page coordinates.
  async function click(name) {
    const box = await page.locator("#board").boundingBox();
    const x = "ABCDEFGHIJKLMNO".indexOf(name[0].toUpperCase()), y = 15 - parseInt(name.slice(1), 10);
    const scale = box.width / 640;
    await page.mouse.click(box.x + (40 + x * 40) * scale, box.y + (40 + y * 40) * scale);
  }
  async function waitFor(check, what, ms = 20000) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await page.waitForTimeout(100);
    }
    fail(`timed out waiting for ${what}`);
  }

  // 1. A short renju game by clicking: the engine (White) answers each move.
  await page.goto(url);
  await page.selectOption("#ms", "300");
  await waitFor(async () => (await status()).includes("Black to move"), "the page to start");
  for (const [i, move] of ["H8", "J10", "G6"].entries()) {
    let point = move;
    // If the engine took the point, play the next free one on the row.
    while (await page.locator(`circle.stone[data-point="${point}"]`).count() > 0) {
      point = "ABCDEFGHIJKLMNO"["ABCDEFGHIJKLMNO".indexOf(point[0]) + 1] + point.slice(1);
    }
    await click(point);
    await waitFor(async () => (await stones()) === 2 * (i + 1), `the engine's answer to ${point}`);
    console.log(`clicked ${point}; stones on the board: ${await stones()}; ${await status()}`);
  }

  // 2. A forbidden point: the judge's double-three vector, then a click on G9.
  await page.goto(`${url}?moves=h8,h9,i7,i9,h10,i6,i11,i12&engine=none`);
  await waitFor(async () => (await stones()) === 8, "the loaded position");
  const mark = page.locator('g.forbidden[data-point="G9"]');
  if (await mark.count() !== 1) fail("G9 is not marked forbidden");
  console.log(`G9 is marked forbidden (${await mark.getAttribute("data-kind")})`);
  await click("G9");
  await waitFor(async () => (await page.locator("#error").textContent()).includes("forbidden"), "the refusal");
  if (await stones() !== 8) fail("the forbidden move was played");
  console.log(`clicking G9: "${await page.locator("#error").textContent()}"; still ${await stones()} stones`);

  // 3. Analysis: a best move appears and candidates are marked.
  await page.check("#analyse");
  await waitFor(async () => (await page.locator("#analysis").textContent()).startsWith("best "), "the analysis");
  await waitFor(async () => (await page.locator("circle.candidate").count()) > 0, "the candidates", 30000);
  console.log(`analysis: ${(await page.locator("#analysis").textContent()).split("\n")[0]}; ` +
              `${await page.locator("circle.candidate").count()} candidates marked`);
  // The screenshot (README's docs/serve.png): the game evaluated for the graph, threats and candidates shown.
  await page.selectOption("#reviewMs", "200");
  await page.click("#review");
  await waitFor(async () => (await page.locator("#reviewText").textContent()).startsWith("evaluated"), "the review",
                60000);
  await page.check("#showThreats");
  await waitFor(async () => (await page.locator("circle.threat").count()) > 0, "the threats");
  await waitFor(async () => (await page.locator("circle.candidate").count()) > 0, "the candidates again", 30000);
  await page.screenshot({ path: shot });

  // 4. An opening rule step by step: RIF as the first player, the three stones placed by clicking.
  await page.uncheck("#analyse");
  await page.goto(url);
  await waitFor(async () => (await status()).includes("Black to move"), "the page to start");
  await page.selectOption("#openingRule", "rif");
  await page.selectOption("#ms", "300");
  await page.click("#startOpening");
  await waitFor(async () => (await page.locator("#opening").textContent()).includes("place 3 stone"), "the first step");
  for (const p of ["H8", "H9", "J10"]) await click(p);
  const typed = await page.locator("#answer").inputValue();
  if (typed !== "h8 h9 j10") fail(`clicks typed "${typed}", not "h8 h9 j10"`);
  await page.click("#sendAnswer");
  // Tengen (the second player) swaps or keeps, and plays the fourth when it holds White: then it is the person's
  // turn again (the fourth, or the two offers).
  await waitFor(async () => /Tengen[^\n]*\n(Tengen[^\n]*\n)*You \(/.test(await page.locator("#opening").textContent()),
                "Tengen's steps", 30000);
  const opening = (await page.locator("#opening").textContent()).split("\n");
  console.log(`RIF after the opening stones: ${opening.slice(1).join(" / ")}`);
  if (await stones() < 3) fail(`${await stones()} stones after the opening, not 3 or more`);

  // 5. Threats: Black's open three (freestyle H8 I8 J8) has its four points ringed and a winning line shown stone by
  // stone; the review fills the graph; the move list navigates; the game downloads as SGF.
  await page.goto(`${url}?rule=freestyle&moves=h8,a1,i8,a3,j8,o1,e5,o3&engine=none&threats=1`);
  await waitFor(async () => (await stones()) === 8, "the loaded position");
  await waitFor(async () => (await page.locator("circle.threat.four").count()) > 0, "the threats");
  const fours = await page.locator('circle.threat.four[data-side="black"]').evaluateAll(
    (cs) => cs.map((c) => c.getAttribute("data-point")).sort());
  for (const p of ["F8", "G8", "K8", "L8"]) if (!fours.includes(p)) fail(`${p} is not ringed as Black's four: ${fours}`);
  const threes = await page.locator('circle.threat.three[data-side="black"]').count();
  const lineText = await page.locator("#lineText").textContent();
  if (!/^Black wins by VC[FT]: 1\.(G8|K8)/.test(lineText)) fail(`no winning line: "${lineText}"`);
  const shown = await page.locator("circle.line-stone").count();
  await page.click("#lineBack");
  await page.click("#lineBack");
  const stepped = await page.locator("circle.line-stone").count();
  if (shown < 3 || stepped !== shown - 2) fail(`the line shows ${shown} then ${stepped} stones`);
  await page.click("#lineNext");
  console.log(`threats: Black's fours ${fours.join(" ")}, ${threes} open-three points; ${lineText}; ` +
              `two steps back: ${stepped} stones, one forward: ${await page.locator("circle.line-stone").count()}`);
  await page.uncheck("#showThreats");
  await page.selectOption("#reviewMs", "200");
  await page.click("#review");
  await waitFor(async () => (await page.locator("#reviewText").textContent()).startsWith("evaluated"), "the review",
                60000);
  const dots = await page.locator("circle.eval").count();
  if (dots !== 9) fail(`the graph has ${dots} points, not 9 (8 moves)`);
  const last = await page.locator('circle.eval[data-ply="8"] title').textContent();
  console.log(`review: ${await page.locator("#reviewText").textContent()}; ${dots} points; ${last}`);
  await page.locator("#moves span", { hasText: /^3\./ }).click();
  await waitFor(async () => (await stones()) === 3, "the move list to go to move 3");
  const redo = await page.locator("#moves span", { hasText: /^8\./ }).evaluate((s) => s.style.color);
  console.log(`move list: went to ${await page.locator("#moves span.current").textContent()}, ` +
              `${await stones()} stones on the board, later moves greyed (${redo})`);
  await page.locator("#moves span", { hasText: /^8\./ }).click();
  await waitFor(async () => (await stones()) === 8, "the move list to go to move 8");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#saveSgf")]);
  const sgfText = await (async () => {
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    return Buffer.concat(chunks).toString();
  })();
  if (!sgfText.startsWith("(;FF[4]") || !sgfText.includes(";B[hh]") || (sgfText.match(/;[BW]\[/g) || []).length !== 8) {
    fail(`the downloaded SGF is wrong: ${sgfText}`);
  }
  console.log(`SGF download: ${download.suggestedFilename()}, ${sgfText.length} bytes, 8 moves, starts ` +
              `${sgfText.slice(0, 40)}`);

  // A reloaded tab goes on with its game.
  await page.goto(url);
  await waitFor(async () => (await stones()) === 8, "the game after a reload");
  console.log(`reload: the tab's game is back (${await stones()} stones, ${await status()})`);

  // 7. A RenLib library opened as a tree: follow a variation, read its comment, add a variation with a comment,
  // step between variations with the keys, and save the tree as a library.
  const header = [0xff, 0x52, 0x65, 0x6e, 0x4c, 0x69, 0x62, 0xff, 3, 4, ...Array(10).fill(0xff)];
  const lib = Buffer.from([...header, 0x00, 0x00, 0x78, 0x00, 0x68, 0xd0, 0x69, 0x48,
                           ...Buffer.from("Good\bsure win\0", "latin1")]);
  const libPath = `${shot}.lib`;
  (await import("node:fs")).writeFileSync(libPath, lib);
  await page.setInputFiles("#file", libPath);
  await waitFor(async () => await page.locator("#variations button").count() === 1, "the library's first move");
  await page.locator("#variations button", { hasText: "H8" }).click();
  await waitFor(async () => (await stones()) === 1 && await page.locator("circle.variation").count() === 2,
                "H8 and its two variations drawn");
  await page.locator("#variations button", { hasText: "I9" }).click();
  await waitFor(async () => (await page.locator("#treeComment").textContent()) === "Good\nsure win",
                "the variation's comment");
  console.log(`tree: opened ${lib.length} bytes, followed H8 I9, comment "${await page.locator("#treeComment").textContent()}"`);
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowLeft");
  await waitFor(async () => (await stones()) === 1, "the key back to H8");
  await click("J10");
  await waitFor(async () => (await stones()) === 2 && (await page.locator("#treeInfo").textContent()).includes("4 nodes"),
                "the new variation J10");
  await page.fill("#commentTitle", "new idea");
  await page.click("#saveComment");
  await waitFor(async () => (await page.locator("#treeComment").textContent()) === "new idea", "the new comment");
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowUp");
  await waitFor(async () => (await page.locator("#treeComment").textContent()) === "Good\nsure win",
                "the key up to the variation I9");
  const [libDownload] = await Promise.all([page.waitForEvent("download"), page.click("#saveLib")]);
  const saved = await (async () => {
    const chunks = [];
    for await (const c of await libDownload.createReadStream()) chunks.push(c);
    return Buffer.concat(chunks);
  })();
  if (!saved.subarray(0, 8).equals(lib.subarray(0, 8)) || !saved.includes(Buffer.from("new idea\0"))
      || !saved.includes(Buffer.from("Good\bsure win"))) {
    fail(`the saved library is wrong: ${saved.toString("hex")}`);
  }
  const treeShot = shot.replace(/\.png$/, "-tree.png");
  await page.screenshot({ path: treeShot, fullPage: true });
  console.log(`tree: added J10 with a comment, ↑ went to I9, saved ${libDownload.suggestedFilename()} ` +
              `(${saved.length} bytes); ${treeShot}`);

  // 6. A phone-sized screen: the page fits its width, the board is whole and still takes clicks.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.selectOption("#rule", "renju");
  await page.click("#new");
  await page.selectOption("#engineSide", "none");
  await waitFor(async () => (await stones()) === 0 && (await status()).includes("Black to move"), "a new game");
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth,
                                                         inner: window.innerWidth }));
  const board = await page.locator("#board").boundingBox();
  if (scroll > inner || board.x < 0 || board.x + board.width > inner) {
    fail(`the page overflows a 390-pixel screen: page ${scroll}, board ${board.x}..${board.x + board.width}`);
  }
  await click("H8");
  await waitFor(async () => (await stones()) === 1, "a click on the small board");
  const small = shot.replace(/\.png$/, "-small.png");
  await page.screenshot({ path: small, fullPage: true });
  console.log(`small screen: page ${scroll} px wide in ${inner}, board ${Math.round(board.width)} px, click ok; ${small}`);
  console.log(`screenshot: ${shot}`);
  console.log("browser test: ok");
} finally {
  await browser.close();
}
