package toolgenai_test

import (
	"context"
	"fmt"
	"log"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolgenai"
)

// One round trip of generateContent with the tools of examples/weather. docs/providers.md's
// section "Using the official SDKs" shows this function's body.
func ExampleRun() {
	ctx := context.Background()
	client, err := genai.NewClient(ctx, nil) // the key from GEMINI_API_KEY
	if err != nil {
		log.Fatal(err)
	}
	tools := forecast.Tools()

	declared, err := toolgenai.Tools(tools)
	if err != nil {
		log.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: declared}
	contents := []*genai.Content{genai.NewContentFromText("Rain in Paris tomorrow?", genai.RoleUser)}
	resp, err := client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, config)
	if err != nil {
		log.Fatal(err)
	}
	// Run the turn's calls: one function response per call, in order. A turn cut short is an error.
	parts, err := toolgenai.Run(ctx, tools, resp)
	if err != nil {
		log.Fatal(err)
	}
	if len(parts) > 0 {
		contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(parts, genai.RoleUser))
		if resp, err = client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, config); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(resp.Text())
}
