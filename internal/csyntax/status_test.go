package csyntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// sdkStatus is a small status vocabulary for the tests; the shipped one is
// data/error_conventions.yaml.
type sdkStatus struct{ success, failure []string }

func (s sdkStatus) SuccessValue(n string) bool { return contains(s.success, n) }
func (s sdkStatus) FailureValue(n string) bool { return contains(s.failure, n) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The typestate walks read SDK status constants from the vocabulary, not
// from a list of their own: without it, "!= pdTRUE" is no failure test and
// the early return looks like a path that keeps the lock.
func TestReleasedReadsStatusConstantsFromTheVocabulary(t *testing.T) {
	code := "void f(void)\n{\n\tif (xSemaphoreTake(m, 10) != pdTRUE) {\n\t\treturn;\n\t}\n\tuse();\n\txSemaphoreGive(m);\n}\n" +
		"void g(void)\n{\n\tif (xSemaphoreTake(m, 10) == pdFALSE) {\n\t\treturn;\n\t}\n\tuse();\n\txSemaphoreGive(m);\n}\n"
	f := parse(t, code)
	acquire, release := []string{"xSemaphoreTake"}, []string{"xSemaphoreGive"}
	plain := NewHaltingCalls("abort")
	freertos := plain.WithStatus(sdkStatus{success: []string{"pdTRUE"}, failure: []string{"pdFALSE"}})
	for _, fn := range []string{"f", "g"} {
		assert.Equal(t, Yes, f.Released(fn, acquire, release, 4, freertos).Verdict, fn)
		assert.Equal(t, No, f.Released(fn, acquire, release, 4, plain).Verdict, fn)
	}
	assert.True(t, freertos.Contains("abort"), "WithStatus keeps the halting calls")
	var none *HaltingCalls
	assert.True(t, none.WithStatus(sdkStatus{success: []string{"ESP_OK"}}).successValue("ESP_OK"))
}
