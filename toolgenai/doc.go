// Package toolgenai connects a runtime.Toolset to the official Google Gen AI Go SDK,
// google.golang.org/genai, for the Gemini API's generateContent.
//
// It is a thin layer over runtime/gemini, which does all the work on JSON:
//
//   - Tools gives the SDK's tools for the functions runtime/gemini declares, their
//     schemas in Gemini's dialect as runtime/dialect lowers them;
//   - Calls reads the function calls of a genai.GenerateContentResponse by handing
//     its JSON to runtime/gemini.Calls, so every one of its refusals holds: calls in
//     a candidate that stopped short (MAX_TOKENS, SAFETY, ...), a malformed or
//     unexpected function call, a blocked prompt, a call without a name and two calls
//     with one id are errors, never half a turn taken, while a call whose args break
//     the schema gets its own argument error as the others run;
//   - Answers turns the results of runtime.Toolset.RunCalls into functionResponse
//     parts, one per call, in the calls' order, each with its call's id and name and
//     an output or an error;
//   - Run does a whole turn: read the calls, run them (in parallel, bounded, every
//     call answered exactly once, in order, observers told they come from provider
//     "gemini") and return the parts to send back.
//
// One round trip, with the tools of a generated package forecast:
//
//	tools := forecast.Tools()
//	declared, err := toolgenai.Tools(tools)
//	if err != nil {
//		log.Fatal(err)
//	}
//	config := &genai.GenerateContentConfig{Tools: declared}
//	contents := []*genai.Content{genai.NewContentFromText("Rain in Paris tomorrow?", genai.RoleUser)}
//	resp, err := client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, config)
//	if err != nil {
//		log.Fatal(err)
//	}
//	parts, err := toolgenai.Run(ctx, tools, resp)
//	if err != nil {
//		log.Fatal(err)
//	}
//	if len(parts) > 0 { // the model called functions: send their responses back
//		contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(parts, genai.RoleUser))
//		resp, err = client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, config)
//	}
//
// The model's turn goes back as the SDK holds it (resp.Candidates[0].Content), thought
// signatures on the parts they came with.
package toolgenai
