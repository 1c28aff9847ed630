import re,sys,statistics,collections
def load(f):
    d=collections.defaultdict(list)
    for l in open(f):
        m=re.match(r'BenchmarkDecode/payload=(\w+)/approach=(\w+)-\d+\s+\d+\s+([\d.]+) ns/op',l)
        if m: d[(m.group(1),m.group(2))].append(float(m.group(3)))
    return d
b=load(sys.argv[1]); a=load(sys.argv[2])
print("| payload | approach | before: min / median | after: min / median | min after/before | median after/before |")
print("|---|---|---|---|---|---|")
for k in b:
    bb=b[k]; aa=a[k]
    print(f"| {k[0]} | {k[1]} | {min(bb):.0f} / {statistics.median(bb):.0f} ns | {min(aa):.0f} / {statistics.median(aa):.0f} ns | {min(aa)/min(bb):.3f} | {statistics.median(aa)/statistics.median(bb):.3f} |")
# paired per-round ratio generated/floor
print()
for p in ['alarm','logs','contacts']:
    rb=[g/f for g,f in zip(b[(p,'generated')],b[(p,'floor')])]
    ra=[g/f for g,f in zip(a[(p,'generated')],a[(p,'floor')])]
    print(f"{p}: generated/floor median before {statistics.median(rb):.3f} after {statistics.median(ra):.3f}")
