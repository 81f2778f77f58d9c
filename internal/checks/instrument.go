package checks

import (
	"fmt"

	"go.starlark.net/syntax"
)

// instrument rewrites a parsed check file so that every operation whose
// result may be large goes through a guard (see guards.go). The interpreter
// offers no hook into its operators, so the rewrite happens on the syntax
// tree, before resolving and compiling:
//
//	x op y          -> $op(x, y)            for op in + * % | & ^ - <<
//	x op= y         -> x op= $op=(x, y)     (the guard checks, returns y)
//	a[i] op= y      -> $t1 = a; $t2 = i; $t3 = $index($t1, $t2); $t1[$t2] op= $op=($t3, y)
//	a.f op= y       -> $t1 = a; $t1.f op= $op=($t1.f, y)
//	x[i]            -> $index(x, i)
//	x[lo:hi:step]   -> $slice(x, lo, hi, step)
//	x.m             -> $attr(x, "m")        for guarded method names m
//	f(*x, **y)      -> f(*$spread(x), **$spread(y))
//
// Each call is positioned where the operator was, so errors keep their
// file:line:col. Names starting with '$' cannot be written in Starlark, so
// a check file can neither call the guards nor shadow them.
func instrument(f *syntax.File, methods map[string]bool) {
	rw := &rewriter{methods: methods}
	f.Stmts = rw.stmts(f.Stmts)
}

type rewriter struct {
	methods map[string]bool
	temps   int
}

func (rw *rewriter) stmts(list []syntax.Stmt) []syntax.Stmt {
	out := make([]syntax.Stmt, 0, len(list))
	for _, s := range list {
		out = append(out, rw.stmt(s)...)
	}
	return out
}

func (rw *rewriter) stmt(s syntax.Stmt) []syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		if s.Op == syntax.EQ {
			s.RHS = rw.expr(s.RHS)
			s.LHS = rw.target(s.LHS)
			return []syntax.Stmt{s}
		}
		return rw.augmented(s)
	case *syntax.DefStmt:
		s.Params = rw.params(s.Params)
		s.Body = rw.stmts(s.Body)
	case *syntax.ExprStmt:
		s.X = rw.expr(s.X)
	case *syntax.ForStmt:
		s.X = rw.expr(s.X)
		s.Vars = rw.target(s.Vars)
		s.Body = rw.stmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = rw.expr(s.Cond)
		s.Body = rw.stmts(s.Body)
	case *syntax.IfStmt:
		s.Cond = rw.expr(s.Cond)
		s.True = rw.stmts(s.True)
		s.False = rw.stmts(s.False)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = rw.expr(s.Result)
		}
	}
	return []syntax.Stmt{s}
}

// augmented rewrites x op= y. The left side's operands are evaluated once,
// before y, as the interpreter does.
func (rw *rewriter) augmented(s *syntax.AssignStmt) []syntax.Stmt {
	op := s.Op - syntax.PLUS_EQ + syntax.PLUS
	guard, guarded := binaryOps[op]
	check := func(current syntax.Expr) syntax.Expr {
		rhs := rw.expr(s.RHS)
		if !guarded {
			return rhs
		}
		return call(guard+"=", s.OpPos, current, rhs)
	}
	lhs := s.LHS
	for {
		p, ok := lhs.(*syntax.ParenExpr)
		if !ok {
			break
		}
		lhs = p.X
	}
	switch l := lhs.(type) {
	case *syntax.Ident:
		s.RHS = check(&syntax.Ident{NamePos: l.NamePos, Name: l.Name})
		s.LHS = l
		return []syntax.Stmt{s}
	case *syntax.IndexExpr:
		x, i, cur := rw.temp(l.Lbrack), rw.temp(l.Lbrack), rw.temp(l.Lbrack)
		pre := []syntax.Stmt{
			assign(x, rw.expr(l.X), s.OpPos),
			assign(i, rw.expr(l.Y), s.OpPos),
			assign(cur, call("$index", l.Lbrack, ref(x), ref(i)), s.OpPos),
		}
		s.LHS = &syntax.IndexExpr{X: ref(x), Lbrack: l.Lbrack, Y: ref(i), Rbrack: l.Rbrack}
		s.RHS = check(ref(cur))
		return append(pre, s)
	case *syntax.DotExpr:
		x := rw.temp(l.Dot)
		pre := assign(x, rw.expr(l.X), s.OpPos)
		s.LHS = &syntax.DotExpr{X: ref(x), Dot: l.Dot, NamePos: l.NamePos, Name: l.Name}
		s.RHS = check(rw.expr(&syntax.DotExpr{X: ref(x), Dot: l.Dot, NamePos: l.NamePos, Name: &syntax.Ident{NamePos: l.NamePos, Name: l.Name.Name}}))
		return []syntax.Stmt{pre, s}
	}
	// Not a valid target: left for the compiler to report.
	s.RHS = rw.expr(s.RHS)
	return []syntax.Stmt{s}
}

// temp returns a fresh temporary, a name no check file can write.
func (rw *rewriter) temp(pos syntax.Position) *syntax.Ident {
	rw.temps++
	return &syntax.Ident{NamePos: pos, Name: fmt.Sprintf("$t%d", rw.temps)}
}

// ref is a new use of the temporary id (every use needs its own node).
func ref(id *syntax.Ident) *syntax.Ident { return &syntax.Ident{NamePos: id.NamePos, Name: id.Name} }

func assign(lhs *syntax.Ident, rhs syntax.Expr, pos syntax.Position) *syntax.AssignStmt {
	return &syntax.AssignStmt{OpPos: pos, Op: syntax.EQ, LHS: lhs, RHS: rhs}
}

// call is a call of the hidden builtin name, positioned at pos.
func call(name string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
}

// target rewrites the operands inside an assignment target, which itself
// stays a store.
func (rw *rewriter) target(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X = rw.expr(e.X)
		e.Y = rw.expr(e.Y)
	case *syntax.DotExpr:
		e.X = rw.expr(e.X)
	case *syntax.ParenExpr:
		e.X = rw.target(e.X)
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = rw.target(x)
		}
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = rw.target(x)
		}
	}
	return e
}

// params rewrites the default values of parameters.
func (rw *rewriter) params(ps []syntax.Expr) []syntax.Expr {
	for _, p := range ps {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = rw.expr(b.Y)
		}
	}
	return ps
}

func (rw *rewriter) expr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *syntax.BinaryExpr:
		e.X = rw.expr(e.X)
		e.Y = rw.expr(e.Y)
		if name, ok := binaryOps[e.Op]; ok {
			return call(name, e.OpPos, e.X, e.Y)
		}
	case *syntax.UnaryExpr:
		e.X = rw.expr(e.X)
	case *syntax.CallExpr:
		e.Fn = rw.expr(e.Fn)
		for i, a := range e.Args {
			switch a := a.(type) {
			case *syntax.BinaryExpr: // name=value
				if a.Op == syntax.EQ {
					a.Y = rw.expr(a.Y)
					continue
				}
			case *syntax.UnaryExpr: // *args, **kwargs
				if a.Op == syntax.STAR || a.Op == syntax.STARSTAR {
					a.X = call("$spread", a.OpPos, rw.expr(a.X))
					continue
				}
			}
			e.Args[i] = rw.expr(a)
		}
	case *syntax.DotExpr:
		e.X = rw.expr(e.X)
		if rw.methods[e.Name.Name] {
			return call("$attr", e.Dot, e.X, &syntax.Literal{Token: syntax.STRING, TokenPos: e.NamePos, Raw: fmt.Sprintf("%q", e.Name.Name), Value: e.Name.Name})
		}
	case *syntax.IndexExpr:
		return call("$index", e.Lbrack, rw.expr(e.X), rw.expr(e.Y))
	case *syntax.SliceExpr:
		part := func(x syntax.Expr) syntax.Expr {
			if x == nil {
				return &syntax.Ident{NamePos: e.Lbrack, Name: "$none"}
			}
			return rw.expr(x)
		}
		return call("$slice", e.Lbrack, rw.expr(e.X), part(e.Lo), part(e.Hi), part(e.Step))
	case *syntax.ParenExpr:
		e.X = rw.expr(e.X)
	case *syntax.CondExpr:
		e.Cond = rw.expr(e.Cond)
		e.True = rw.expr(e.True)
		e.False = rw.expr(e.False)
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = rw.expr(x)
		}
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = rw.expr(x)
		}
	case *syntax.DictExpr:
		for _, x := range e.List {
			entry := x.(*syntax.DictEntry)
			entry.Key = rw.expr(entry.Key)
			entry.Value = rw.expr(entry.Value)
		}
	case *syntax.Comprehension:
		if entry, ok := e.Body.(*syntax.DictEntry); ok {
			entry.Key = rw.expr(entry.Key)
			entry.Value = rw.expr(entry.Value)
		} else {
			e.Body = rw.expr(e.Body)
		}
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.X = rw.expr(c.X)
				c.Vars = rw.target(c.Vars)
			case *syntax.IfClause:
				c.Cond = rw.expr(c.Cond)
			}
		}
	case *syntax.LambdaExpr:
		e.Params = rw.params(e.Params)
		e.Body = rw.expr(e.Body)
	}
	return e
}
