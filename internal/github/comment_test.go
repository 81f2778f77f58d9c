package github

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const marker = "<!-- embedeval:validate -->"

func TestUpsertCommentCreatesThenEdits(t *testing.T) {
	_, p, _ := newRegistry(t,
		// First call: no marked comment on either page → create.
		expected{Method: "GET", Path: api + "/issues/12/comments", Query: "per_page=100",
			Header: map[string]string{"Link": `<` + "http://x/repos/octo/bench/issues/12/comments?page=2&per_page=100" + `>; rel="next"`},
			Reply:  `[{"id":1,"body":"looks good"}]`},
		expected{Method: "GET", Path: api + "/issues/12/comments", Query: "page=2&per_page=100", Reply: `[{"id":2,"body":"another"}]`},
		expected{Method: "POST", Path: api + "/issues/12/comments", Body: `{"body":"` + marker + `\nfirst"}`, Status: 201,
			Reply: `{"id":3,"body":"` + marker + `\nfirst"}`},
		// Second call: the marked comment is found → edit it.
		expected{Method: "GET", Path: api + "/issues/12/comments", Query: "per_page=100",
			Reply: `[{"id":1,"body":"looks good"},{"id":3,"body":"` + marker + `\nfirst"}]`},
		expected{Method: "PATCH", Path: api + "/issues/comments/3", Body: `{"body":"` + marker + `\nsecond"}`,
			Reply: `{"id":3,"body":"` + marker + `\nsecond"}`},
	)
	c, created, err := p.UpsertComment(context.Background(), 12, marker, "first")
	require.NoError(t, err)
	require.True(t, created)
	require.Equal(t, int64(3), c.GetID())

	c, created, err = p.UpsertComment(context.Background(), 12, marker, marker+"\nsecond")
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, int64(3), c.GetID())
}

func TestUpsertCommentRetriedCreateDoesNotDuplicate(t *testing.T) {
	_, p, slept := newRegistry(t,
		expected{Method: "GET", Path: api + "/issues/12/comments", Query: "per_page=100", Reply: `[]`},
		// The create fails with a 502 although GitHub stored the comment.
		expected{Method: "POST", Path: api + "/issues/12/comments", Body: `{"body":"` + marker + `\nhi"}`, Status: 502, Reply: `{"message":"Bad Gateway"}`},
		expected{Method: "GET", Path: api + "/issues/12/comments", Query: "per_page=100", Reply: `[{"id":5,"body":"` + marker + `\nhi"}]`},
		expected{Method: "PATCH", Path: api + "/issues/comments/5", Body: `{"body":"` + marker + `\nhi"}`, Reply: `{"id":5}`},
	)
	c, created, err := p.UpsertComment(context.Background(), 12, marker, "hi")
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, int64(5), c.GetID())
	require.Equal(t, []time.Duration{2 * time.Second}, *slept)
}

func TestUpsertCommentPermissionError(t *testing.T) {
	_, p, _ := newRegistry(t,
		expected{Method: "GET", Path: api + "/issues/12/comments", Query: "per_page=100", Reply: `[]`},
		expected{Method: "POST", Path: api + "/issues/12/comments", Body: `{"body":"` + marker + `\nhi"}`, Status: 403,
			Reply: `{"message":"Resource not accessible by integration"}`},
	)
	_, _, err := p.UpsertComment(context.Background(), 12, marker, "hi")
	require.ErrorIs(t, err, ErrPermission)
	require.ErrorContains(t, err, "comment on #12: "+PermissionHint)
}
