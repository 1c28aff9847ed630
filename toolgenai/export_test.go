package toolgenai

// Schema is schema, for the tests of the checks it makes on a Gemini schema that
// runtime/gemini would never send.
var Schema = schema
