package csyntax

import ts "github.com/tree-sitter/go-tree-sitter"

// nodeKinds are the node kind and field ids of tree-sitter-c that the flow
// builders and the error-path judge compare, looked up once per language.
type nodeKinds struct {
	compound, exprStmt, ifStmt, whileStmt, doStmt, forStmt, switchStmt, caseStmt, labeled, returnStmt,
	gotoStmt, breakStmt, continueStmt, declaration, errorNode, ppIf, ppIfdef, ppElse, ppElif,
	ppElifdef, comment, attributed, call, identifier, binary, conditional, sizeOf, alignOf, offsetOf,
	paren, number, trueLit, unary, fnDef, fnDecl, ptrDecl, parenDecl, attrDecl, assign, update,
	initDecl, pointerExpr, fieldIdent, argList, fieldExpr, cast, subscript, initList, compoundLit,
	comma, initPair, typeDesc, arrayDecl, elseClause, ppDef, ppFnDef, ppCall, ppInclude,
	translationUnit, kwReturn, kwGoto uint16
	// Field ids.
	fBody, fCondition, fConsequence, fAlternative, fInitializer, fValue, fLabel, fFunction,
	fArguments, fOperator, fLeft, fRight, fArgument, fDeclarator, fParameters, fUpdate, fField, fType,
	fName uint16
}

// newNodeKinds looks up the ids of lang.
func newNodeKinds(lang *ts.Language) *nodeKinds {
	id := func(kind string) uint16 { return lang.IdForNodeKind(kind, true) }
	field := lang.FieldIdForName
	return &nodeKinds{
		compound: id("compound_statement"), exprStmt: id("expression_statement"), ifStmt: id("if_statement"),
		whileStmt: id("while_statement"), doStmt: id("do_statement"), forStmt: id("for_statement"),
		switchStmt: id("switch_statement"), caseStmt: id("case_statement"), labeled: id("labeled_statement"),
		returnStmt: id("return_statement"), gotoStmt: id("goto_statement"), breakStmt: id("break_statement"),
		continueStmt: id("continue_statement"), declaration: id("declaration"), errorNode: id("ERROR"),
		ppIf: id("preproc_if"), ppIfdef: id("preproc_ifdef"), ppElse: id("preproc_else"),
		ppElif: id("preproc_elif"), ppElifdef: id("preproc_elifdef"), comment: id("comment"),
		attributed: id("attributed_statement"), call: id("call_expression"), identifier: id("identifier"),
		binary: id("binary_expression"), conditional: id("conditional_expression"),
		sizeOf: id("sizeof_expression"), alignOf: id("alignof_expression"), offsetOf: id("offsetof_expression"),
		paren: id("parenthesized_expression"), number: id("number_literal"), trueLit: id("true"),
		unary: id("unary_expression"), fnDef: id("function_definition"), fnDecl: id("function_declarator"),
		ptrDecl: id("pointer_declarator"), parenDecl: id("parenthesized_declarator"),
		attrDecl: id("attributed_declarator"), assign: id("assignment_expression"),
		update: id("update_expression"), initDecl: id("init_declarator"), pointerExpr: id("pointer_expression"),
		fieldIdent: id("field_identifier"), argList: id("argument_list"), fieldExpr: id("field_expression"),
		cast: id("cast_expression"), subscript: id("subscript_expression"), initList: id("initializer_list"),
		compoundLit: id("compound_literal_expression"), comma: id("comma_expression"),
		initPair: id("initializer_pair"), typeDesc: id("type_descriptor"), arrayDecl: id("array_declarator"),
		elseClause: id("else_clause"), ppDef: id("preproc_def"), ppFnDef: id("preproc_function_def"),
		ppCall: id("preproc_call"), ppInclude: id("preproc_include"), translationUnit: id("translation_unit"),
		kwReturn: lang.IdForNodeKind("return", false), kwGoto: lang.IdForNodeKind("goto", false),
		fBody: field("body"), fCondition: field("condition"), fConsequence: field("consequence"),
		fAlternative: field("alternative"), fInitializer: field("initializer"), fValue: field("value"),
		fLabel: field("label"), fFunction: field("function"), fArguments: field("arguments"),
		fOperator: field("operator"), fLeft: field("left"), fRight: field("right"), fArgument: field("argument"),
		fDeclarator: field("declarator"), fParameters: field("parameters"), fUpdate: field("update"),
		fField: field("field"), fType: field("type"), fName: field("name"),
	}
}
