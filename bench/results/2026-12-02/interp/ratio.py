import sys,re,statistics,collections
d=collections.defaultdict(list)
for f in sys.argv[1:]:
    for l in open(f):
        m=re.match(r'BenchmarkDynamic/payload=(\w+)/engine=(\w+)-\d+\s+\d+\s+([\d.]+) ns/op',l)
        if m: d[(m[1],m[2])].append(float(m[3]))
pays=[]
for (p,e) in d:
    if p not in pays: pays.append(p)
print("%-13s %10s %10s %10s %8s %8s (median ns; ratio = median of per-round ratios)"%("payload","generated","toolgen","general","tg/gen","gen/gen"))
for p in pays:
    g=d[(p,'generated')]; t=d[(p,'toolgen')]; u=d[(p,'general')]
    n=min(len(g),len(t),len(u))
    rt=statistics.median([t[i]/g[i] for i in range(n)]); ru=statistics.median([u[i]/g[i] for i in range(n)])
    print("%-13s %10.0f %10.0f %10.0f %7.2fx %7.2fx  n=%d"%(p,statistics.median(g),statistics.median(t),statistics.median(u),rt,ru,n))
