package cases

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/diag"
)

const goodMeta = `id: "isr-concurrency-008"
category: "isr-concurrency"
difficulty: "hard"
title: "Lock-free SPSC ring queue"
description: "Single-producer single-consumer ring buffer."
tags: ["zephyr", "isr"]
platform: "native_sim"
sdk: "zephyr"
estimated_tokens: 400
sdk_version: "4.1.0"
tier: "challenge"
reasoning_types: ["system_reasoning"]
`

func problemStrings(ps []diag.Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func TestDecodeMetadataGood(t *testing.T) {
	m, ps := DecodeMetadata("m.yaml", []byte(goodMeta))
	require.Empty(t, ps)
	require.Equal(t, "isr-concurrency-008", m.ID)
	require.Equal(t, "challenge", m.Tier)
	require.Equal(t, "public", m.Visibility, "visibility defaults to public")
	require.Equal(t, "native_sim", m.Board(), "build_board defaults to native_sim")
	require.Equal(t, []string{"system_reasoning"}, m.ReasoningTypes)
	require.Equal(t, 400, m.EstimatedTokens)
	require.False(t, m.L1Skip)

	m, ps = DecodeMetadata("m.yaml", []byte(strings.Replace(goodMeta, "tier: \"challenge\"\n", "", 1)))
	require.Empty(t, ps)
	require.Equal(t, "core", m.Tier, "tier defaults to core")
}

func TestDecodeMetadataBad(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{"malformed", "id: \"x\n  tags: [\n", []string{`m.yaml:3: invalid YAML: found unexpected end of stream [metadata]`}},
		{"empty", "", []string{`m.yaml: empty file: expected a mapping of metadata fields [metadata]`}},
		{"not a mapping", "- a\n- b\n", []string{`m.yaml:1:1: expected a mapping of metadata fields, found a list [metadata]`}},
		{"unknown field", goodMeta + "author: me\n", []string{`m.yaml:13:1: unknown field "author" (the metadata schema is closed; allowed: id, category, difficulty, title, description, tags, platform, sdk, estimated_tokens, sdk_version, visibility, created_date, tier, reasoning_types, build_board, l1_skip, l2_skip) [metadata]`}},
		{"bad enum", strings.Replace(goodMeta, `difficulty: "hard"`, `difficulty: "extreme"`, 1), []string{`m.yaml:3:13: field "difficulty": "extreme" is not one of easy, medium, hard [metadata]`}},
		{"bad platform", strings.Replace(goodMeta, `platform: "native_sim"`, `platform: "arduino"`, 1), []string{`m.yaml:7:11: field "platform": "arduino" is not one of babblesim, docker_only, esp_idf, native_sim, qemu_arm, qemu_freertos, qemu_linux, stm32_hal, yocto_build [metadata]`}},
		{"bad reasoning type", strings.Replace(goodMeta, `["system_reasoning"]`, `["memory-model"]`, 1), []string{`m.yaml:12:19: field "reasoning_types": "memory-model" is not one of api_recall, rule_application, cross_domain, system_reasoning [metadata]`}},
		{"missing field", strings.Replace(goodMeta, "sdk_version: \"4.1.0\"\n", "", 1), []string{`m.yaml:1:1: missing required field "sdk_version" [metadata]`}},
		{"duplicate field", goodMeta + "tier: \"core\"\n", []string{`m.yaml:13:1: duplicate field "tier" (first set on line 11) [metadata]`}},
		{"bad id form", strings.Replace(goodMeta, `id: "isr-concurrency-008"`, `id: "isr-concurrency-8"`, 1), []string{`m.yaml:1:5: id "isr-concurrency-8" does not have the form <category>-<NNN> (three digits) [metadata]`}},
		{"id category mismatch", strings.Replace(goodMeta, `id: "isr-concurrency-008"`, `id: "threading-008"`, 1), []string{`m.yaml:1:5: id "threading-008" does not start with its category "isr-concurrency" [metadata]`}},
		{"bad date", goodMeta + "created_date: \"29/11/2026\"\n", []string{`m.yaml:13:15: created_date "29/11/2026" is not an ISO date (YYYY-MM-DD) [metadata]`}},
		{"tokens not int", strings.Replace(goodMeta, "estimated_tokens: 400", "estimated_tokens: many", 1), []string{`m.yaml:9:19: field "estimated_tokens" must be an integer, found the string "many" [metadata]`}},
		{"tokens zero", strings.Replace(goodMeta, "estimated_tokens: 400", "estimated_tokens: 0", 1), []string{`m.yaml:9:19: estimated_tokens must be a positive integer, found 0 [metadata]`}},
		{"bool as string", goodMeta + "l1_skip: \"yes\"\n", []string{`m.yaml:13:10: field "l1_skip" must be true or false, found the string "yes" [metadata]`}},
		{"tags not list", strings.Replace(goodMeta, `tags: ["zephyr", "isr"]`, `tags: zephyr`, 1), []string{`m.yaml:6:7: field "tags" must be a list of strings, found the string "zephyr" [metadata]`}},
		{"null title", strings.Replace(goodMeta, `title: "Lock-free SPSC ring queue"`, `title:`, 1), []string{`m.yaml:4:7: field "title" must be a string, found null [metadata]`}},
		{"two problems", strings.Replace(strings.Replace(goodMeta, `"hard"`, `"x"`, 1), `"zephyr"`+"\n", `"zephir"`+"\n", 1), []string{
			`m.yaml:3:13: field "difficulty": "x" is not one of easy, medium, hard [metadata]`,
			`m.yaml:8:6: field "sdk": "zephir" is not one of zephyr, embedded-linux, freertos, esp-idf, stm32-hal, baremetal [metadata]`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := DecodeMetadata("m.yaml", []byte(tt.yaml))
			require.Equal(t, tt.want, problemStrings(ps))
		})
	}
}

func FuzzDecodeMetadata(f *testing.F) {
	f.Add([]byte(goodMeta))
	f.Add([]byte("id: [\n"))
	f.Add([]byte("- - -\n"))
	f.Add([]byte("id: &a x\nb: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ps := DecodeMetadata("f.yaml", data)
		if !diag.HasErrors(ps) {
			// Whatever decodes cleanly satisfies the schema.
			require.Contains(t, Categories(), m.Category)
			require.Contains(t, Platforms(), m.Platform)
			require.Contains(t, Tiers(), m.Tier)
			require.Regexp(t, caseIDPattern, m.ID)
		}
	})
}

func TestDecodeLegacyMetadata(t *testing.T) {
	noSDK := strings.Replace(goodMeta, "sdk: \"zephyr\"\n", "", 1)
	_, ps := DecodeMetadata("m.yaml", []byte(noSDK))
	require.Equal(t, []string{`m.yaml:1:1: missing required field "sdk" [metadata]`}, problemStrings(ps), "this project's layout requires sdk")

	m, ps, inferred := DecodeLegacyMetadata("m.yaml", []byte(noSDK))
	require.Empty(t, ps)
	require.True(t, inferred)
	require.Equal(t, "zephyr", m.SDK)

	m, ps, inferred = DecodeLegacyMetadata("m.yaml", []byte(goodMeta))
	require.Empty(t, ps)
	require.False(t, inferred, "a given sdk is kept")
	require.Equal(t, "zephyr", m.SDK)

	m, ps, _ = DecodeLegacyMetadata("m.yaml", []byte(strings.Replace(noSDK, `platform: "native_sim"`, `platform: "stm32_hal"`, 1)))
	require.Empty(t, ps)
	require.Equal(t, "stm32-hal", m.SDK)

	_, ps, _ = DecodeLegacyMetadata("m.yaml", []byte(strings.Replace(noSDK, `platform: "native_sim"`, `platform: "arduino"`, 1)))
	require.Equal(t, []string{
		`m.yaml:7:11: field "platform": "arduino" is not one of babblesim, docker_only, esp_idf, native_sim, qemu_arm, qemu_freertos, qemu_linux, stm32_hal, yocto_build [metadata]`,
		`m.yaml:1:1: missing field "sdk", and no valid platform to take it from [metadata]`,
	}, problemStrings(ps))

	prefixed := strings.Replace(noSDK, `id: "isr-concurrency-008"`, `id: "stm32-uart-001"`, 1)
	_, ps, _ = DecodeLegacyMetadata("m.yaml", []byte(prefixed))
	require.Equal(t, []string{`m.yaml:1:5: warning: id "stm32-uart-001" does not start with its category "isr-concurrency" (this project's rule; the Python implementation's flat layout allows it) [metadata]`}, problemStrings(ps))
	require.False(t, diag.HasErrors(ps))
}

func TestSDKForPlatform(t *testing.T) {
	for _, p := range Platforms() {
		sdk := SDKForPlatform(p)
		require.Contains(t, SDKs(), sdk, "platform %s maps to an SDK", p)
	}
	require.Equal(t, "embedded-linux", SDKForPlatform("docker_only"))
	require.Equal(t, "embedded-linux", SDKForPlatform("yocto_build"))
	require.Equal(t, "freertos", SDKForPlatform("qemu_freertos"))
	require.Equal(t, "esp-idf", SDKForPlatform("esp_idf"))
	require.Equal(t, "zephyr", SDKForPlatform("qemu_arm"))
	require.Empty(t, SDKForPlatform("arduino"))
}
