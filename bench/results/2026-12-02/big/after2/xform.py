# Writes the dispatch variants of experiments.txt (4) from a generated toolgen.gen.go copied to
# /tmp/bigrun/exp/orig.go: python3 xform.py noclosure|switch|funcs OUT.go (a measurement aid, not built).
import re,sys
src=open('/tmp/bigrun/exp/orig.go').read()
mode=sys.argv[1]
start=src.index('func toolgenDispatch(')
end=src.index('\n}\n',start)+3
disp=src[start:end]
case_re=re.compile(r'\tcase (\d+):\n\t\t// (\S+)\n\t\tvar in (\w+)\n\t\ttoolimpl\.Decode\(d, &toolgenTables, (\d+), unsafe\.Pointer\(&in\)\)\n\t\tif !d\.Finish\(\) \{\n\t\t\treturn nil\n\t\t\}\n\t\treturn func\((?:ctx )?context\.Context\) \(\*runtime\.Result, error\) \{\n(.*?)\n\t\t\}\n',re.S)
cases=case_re.findall(disp)
print(len(cases),file=sys.stderr)
out=[]
if mode=='noclosure':
    body=''.join(f'\tcase {n}:\n\t\t// {name}\n\t\tvar in {t}\n\t\ttoolimpl.Decode(d, &toolgenTables, {k}, unsafe.Pointer(&in))\n\t\tif !d.Finish() {{\n\t\t\treturn nil\n\t\t}}\n\t\t_ = in\n\t\treturn nil\n' for n,name,t,k,b in cases)
    newdisp='func toolgenDispatch(i int, d *runtime.Decoder) toolimpl.Invocation {\n\tswitch i {\n'+body+'\t}\n\treturn nil\n}\n'
elif mode=='switch':
    # args types table + one call switch
    types=''.join(f'\t(*{t})(nil),\n' for n,name,t,k,b in cases)
    tabs=''.join(f'\t{k},\n' for n,name,t,k,b in cases)
    calls=''
    for n,name,t,k,b in cases:
        b=b.replace('\t\t\t','\t\t').replace('(ctx, in)','(ctx, *(*%s)(p))'%t)
        b=re.sub(r'\bin\.',f'(*{t})(p).',b)
        calls+=f'\tcase {n}:\n{b}\n'
    newdisp=('func toolgenDispatch(i int, d *runtime.Decoder) toolimpl.Invocation {\n\tp := reflect.New(reflect.TypeOf(toolgenArgTypes[i]).Elem()).UnsafePointer()\n\ttoolimpl.Decode(d, &toolgenTables, toolgenArgTables[i], p)\n\tif !d.Finish() {\n\t\treturn nil\n\t}\n\treturn func(ctx context.Context) (*runtime.Result, error) { return toolgenCall(ctx, i, p) }\n}\n\n'
      'var toolgenArgTypes = [...]any{\n'+types+'}\n\nvar toolgenArgTables = [...]int{\n'+tabs+'}\n\n'
      'func toolgenCall(ctx context.Context, i int, p unsafe.Pointer) (*runtime.Result, error) {\n\tswitch i {\n'+calls+'\t}\n\treturn nil, nil\n}\n')
elif mode=='funcs':
    types=''.join(f'\t(*{t})(nil),\n' for n,name,t,k,b in cases)
    tabs=''.join(f'\t{{{k}, toolgenCall{n}}},\n' for n,name,t,k,b in cases)
    calls=''
    for n,name,t,k,b in cases:
        b=b.replace('\t\t\t','\t').replace('(ctx, in)','(ctx, *(*%s)(p))'%t)
        b=re.sub(r'\bin\.',f'(*{t})(p).',b)
        calls+=f'func toolgenCall{n}(ctx context.Context, p unsafe.Pointer) (*runtime.Result, error) {{\n{b}\n}}\n\n'
    newdisp=('func toolgenDispatch(i int, d *runtime.Decoder) toolimpl.Invocation {\n\tp := reflect.New(reflect.TypeOf(toolgenArgTypes[i]).Elem()).UnsafePointer()\n\tt := &toolgenArgTables[i]\n\ttoolimpl.Decode(d, &toolgenTables, t.table, p)\n\tif !d.Finish() {\n\t\treturn nil\n\t}\n\treturn func(ctx context.Context) (*runtime.Result, error) { return t.call(ctx, p) }\n}\n\n'
      'var toolgenArgTypes = [...]any{\n'+types+'}\n\nvar toolgenArgTables = [...]struct{table int; call func(context.Context, unsafe.Pointer) (*runtime.Result, error)}{\n'+tabs+'}\n\n'+calls)
src=src[:start]+newdisp+src[end:]
if mode in('switch','funcs'):
    src=src.replace('import (\n','import (\n\t"reflect"\n',1)
open(sys.argv[2],'w').write(src)
