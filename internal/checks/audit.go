package checks

import (
	"go.starlark.net/syntax"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// AuditRule is the rule name of scope-audit findings.
const AuditRule = "scope-audit"

// rawStringMethods are str methods that search raw text when called on the code.
var rawStringMethods = map[string]bool{"find": true, "rfind": true, "index": true, "rindex": true, "count": true}

// AuditScope walks a check file's syntax tree and reports raw substring tests
// on the code argument: `"x" in code`, `"x" not in code`, and code.find/
// rfind/index/rindex/count(...). The code argument is the first parameter of
// run_checks, and the first parameter of any other function whose first
// parameter has the same name. Such tests also match text in comments and
// string literals; scoped_contains(code, needle, scope=...) says which scope is
// meant. A parse error yields no findings (loading reports it).
func AuditScope(path string, src []byte) []diag.Problem {
	f, err := syntax.Parse(path, src, syntax.RetainComments)
	if err != nil {
		return nil
	}
	codeName := ""
	for _, stmt := range f.Stmts {
		if def, ok := stmt.(*syntax.DefStmt); ok && def.Name.Name == "run_checks" && len(def.Params) > 0 {
			if id, ok := def.Params[0].(*syntax.Ident); ok {
				codeName = id.Name
			}
		}
	}
	if codeName == "" {
		return nil
	}
	var problems []diag.Problem
	isCode := func(e syntax.Expr) bool {
		id, ok := e.(*syntax.Ident)
		return ok && id.Name == codeName
	}
	var inScope []bool
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			inScope = inScope[:len(inScope)-1]
			return true
		}
		scoped := len(inScope) > 0 && inScope[len(inScope)-1]
		if def, ok := n.(*syntax.DefStmt); ok {
			scoped = false
			if len(def.Params) > 0 {
				if id, ok := def.Params[0].(*syntax.Ident); ok && id.Name == codeName {
					scoped = true
				}
			}
		}
		if lambda, ok := n.(*syntax.LambdaExpr); ok {
			scoped = false
			if len(lambda.Params) > 0 {
				if id, ok := lambda.Params[0].(*syntax.Ident); ok && id.Name == codeName {
					scoped = true
				}
			}
		}
		inScope = append(inScope, scoped)
		if !scoped {
			return true
		}
		switch x := n.(type) {
		case *syntax.BinaryExpr:
			if (x.Op == syntax.IN || x.Op == syntax.NOT_IN) && isCode(x.Y) {
				start, _ := x.Span()
				problems = append(problems, diag.Errorf(path, int(start.Line), int(start.Col), AuditRule,
					"raw substring test %q on the code argument; use scoped_contains(%s, needle, scope=\"stripped\"|\"code_only\"|\"raw\")",
					x.Op.String(), codeName))
			}
		case *syntax.CallExpr:
			if dot, ok := x.Fn.(*syntax.DotExpr); ok && rawStringMethods[dot.Name.Name] && isCode(dot.X) {
				start, _ := x.Span()
				problems = append(problems, diag.Errorf(path, int(start.Line), int(start.Col), AuditRule,
					"raw substring search %s.%s() on the code argument; use scoped_contains or the c module",
					codeName, dot.Name.Name))
			}
		}
		return true
	})
	return problems
}
