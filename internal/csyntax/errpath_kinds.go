package csyntax

import ts "github.com/tree-sitter/go-tree-sitter"

// errKinds are the node kind and field ids the error-path judge compares.
type errKinds struct {
	identifier, fieldIdent, call, argList, fieldExpr, paren, binary, unary, assign, initDecl,
	cast, subscript, sizeOf, initList, compoundLit, conditional, comma, pointerExpr, update,
	initPair, typeDesc, arrayDecl, ptrDecl, comment,
	exprStmt, returnStmt, declaration, ifStmt, elseClause, whileStmt, doStmt, forStmt, switchStmt,
	caseStmt, labeled, compound, gotoStmt, breakStmt, continueStmt, fnDef, fnDecl, attributed,
	ppIf, ppIfdef, ppElse, ppElif, ppElifdef, ppDef, ppFnDef, ppCall, ppInclude, translationUnit, errorNode,
	kwReturn, kwGoto uint16
	// Field ids.
	fFunction, fArguments, fField, fCondition, fConsequence, fAlternative, fBody, fLeft, fRight,
	fOperator, fArgument, fValue, fDeclarator, fType, fInitializer, fUpdate, fLabel, fName uint16
}

// newErrKinds looks up the ids of lang.
func newErrKinds(lang *ts.Language) *errKinds {
	id := func(kind string) uint16 { return lang.IdForNodeKind(kind, true) }
	field := lang.FieldIdForName
	return &errKinds{
		identifier: id("identifier"), fieldIdent: id("field_identifier"), call: id("call_expression"),
		argList: id("argument_list"), fieldExpr: id("field_expression"), paren: id("parenthesized_expression"),
		binary: id("binary_expression"), unary: id("unary_expression"), assign: id("assignment_expression"),
		initDecl: id("init_declarator"), cast: id("cast_expression"), subscript: id("subscript_expression"),
		sizeOf: id("sizeof_expression"), initList: id("initializer_list"), compoundLit: id("compound_literal_expression"),
		conditional: id("conditional_expression"), comma: id("comma_expression"), pointerExpr: id("pointer_expression"),
		update: id("update_expression"), initPair: id("initializer_pair"), typeDesc: id("type_descriptor"),
		arrayDecl: id("array_declarator"), ptrDecl: id("pointer_declarator"), comment: id("comment"),
		exprStmt: id("expression_statement"), returnStmt: id("return_statement"), declaration: id("declaration"),
		ifStmt: id("if_statement"), elseClause: id("else_clause"), whileStmt: id("while_statement"),
		doStmt: id("do_statement"), forStmt: id("for_statement"), switchStmt: id("switch_statement"),
		caseStmt: id("case_statement"), labeled: id("labeled_statement"), compound: id("compound_statement"),
		gotoStmt: id("goto_statement"), breakStmt: id("break_statement"), continueStmt: id("continue_statement"),
		fnDef: id("function_definition"), fnDecl: id("function_declarator"), attributed: id("attributed_statement"),
		ppIf: id("preproc_if"), ppIfdef: id("preproc_ifdef"), ppElse: id("preproc_else"), ppElif: id("preproc_elif"),
		ppElifdef: id("preproc_elifdef"), ppDef: id("preproc_def"), ppFnDef: id("preproc_function_def"),
		ppCall: id("preproc_call"), ppInclude: id("preproc_include"), translationUnit: id("translation_unit"), errorNode: id("ERROR"),
		kwReturn: lang.IdForNodeKind("return", false), kwGoto: lang.IdForNodeKind("goto", false),
		fFunction: field("function"), fArguments: field("arguments"), fField: field("field"),
		fCondition: field("condition"), fConsequence: field("consequence"), fAlternative: field("alternative"),
		fBody: field("body"), fLeft: field("left"), fRight: field("right"), fOperator: field("operator"),
		fArgument: field("argument"), fValue: field("value"), fDeclarator: field("declarator"), fType: field("type"),
		fInitializer: field("initializer"), fUpdate: field("update"), fLabel: field("label"),
		fName: field("name"),
	}
}
