/* gpiocfg: configuration-driven GPIO daemon on sysfs-style files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SECTIONS 16
#define MAX_LINE_LEN 200
#define MAX_GPIO     511

struct gpio_line {
	char name[16];
	int header_lineno;
	int line;          /* -1: not given */
	int direction;     /* -1: not given, 0 in, 1 out */
	int value;         /* -1: not given */
	int active_low;    /* -1: not given */
	int exported;
	int configured;
};

static struct gpio_line lines[MAX_SECTIONS];
static int nlines;
static const char *cfg_name;

static int cfg_error(int lineno, const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "%s:%d: ", cfg_name, lineno);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return -1;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

static int valid_name(const char *s, size_t n)
{
	if (n < 1 || n > 15)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* Completeness of the section that just ended. */
static int close_section(void)
{
	struct gpio_line *g;

	if (nlines == 0)
		return 0;
	g = &lines[nlines - 1];
	if (g->line < 0)
		return cfg_error(g->header_lineno, "section %s: missing line%s", g->name, "");
	if (g->direction < 0)
		return cfg_error(g->header_lineno, "section %s: missing direction%s", g->name, "");
	if (g->value >= 0 && g->direction == 0)
		return cfg_error(g->header_lineno, "section %s: value needs direction out%s", g->name, "");
	return 0;
}

static int parse_number(const char *v)
{
	long n = 0;

	if (*v == '\0')
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9')
			return -1;
		n = n * 10 + (*v - '0');
		if (n > MAX_GPIO)
			return -1;
	}
	return (int)n;
}

static int setting(int lineno, char *key, char *val)
{
	struct gpio_line *g = &lines[nlines - 1];
	int *slot;
	int v;

	if (!strcmp(key, "line")) {
		slot = &g->line;
		v = parse_number(val);
	} else if (!strcmp(key, "direction")) {
		slot = &g->direction;
		v = !strcmp(val, "in") ? 0 : !strcmp(val, "out") ? 1 : -1;
	} else if (!strcmp(key, "value")) {
		slot = &g->value;
		v = !strcmp(val, "0") ? 0 : !strcmp(val, "1") ? 1 : -1;
	} else if (!strcmp(key, "active_low")) {
		slot = &g->active_low;
		v = !strcmp(val, "no") ? 0 : !strcmp(val, "yes") ? 1 : -1;
	} else {
		return cfg_error(lineno, "unknown key %s%s", key, "");
	}
	if (*slot >= 0)
		return cfg_error(lineno, "duplicate key %s%s", key, "");
	if (v < 0)
		return cfg_error(lineno, "bad value for %s%s", key, "");
	if (slot == &g->line) {
		for (int i = 0; i < nlines - 1; i++)
			if (lines[i].line == v) {
				char num[16];

				snprintf(num, sizeof(num), "%d", v);
				return cfg_error(lineno, "line %s already used by %s", num, lines[i].name);
			}
	}
	*slot = v;
	return 0;
}

static int parse_config(FILE *f)
{
	char buf[MAX_LINE_LEN + 2];
	int lineno = 0;

	for (;;) {
		size_t n;
		int c;
		char *s;

		if (fgets(buf, sizeof(buf), f) == NULL)
			break;
		lineno++;
		n = strlen(buf);
		if (n > 0 && buf[n - 1] == '\n') {
			buf[--n] = '\0';
		} else if (n > MAX_LINE_LEN) {
			/* Too long: skip the rest of it, report. */
			while ((c = getc(f)) != EOF && c != '\n')
				;
			return cfg_error(lineno, "line too long%s%s", "", "");
		}
		if (memchr(buf, '\0', n) != NULL)
			n = strlen(buf);
		s = trim(buf);
		if (*s == '\0' || *s == '#')
			continue;
		if (*s == '[') {
			size_t len = strlen(s);

			if (close_section() < 0)
				return -1;
			if (len < 2 || s[len - 1] != ']' || !valid_name(s + 1, len - 2))
				return cfg_error(lineno, "bad section header%s%s", "", "");
			s[len - 1] = '\0';
			s++;
			for (int i = 0; i < nlines; i++)
				if (!strcmp(lines[i].name, s))
					return cfg_error(lineno, "duplicate section %s%s", s, "");
			if (nlines == MAX_SECTIONS)
				return cfg_error(lineno, "too many sections%s%s", "", "");
			struct gpio_line *g = &lines[nlines++];

			memset(g, 0, sizeof(*g));
			strcpy(g->name, s);
			g->header_lineno = lineno;
			g->line = g->direction = g->value = g->active_low = -1;
			continue;
		}
		char *eq = strchr(s, '=');

		if (eq == NULL)
			return cfg_error(lineno, "syntax error%s%s", "", "");
		*eq = '\0';
		char *key = trim(s), *val = trim(eq + 1);

		if (*key == '\0')
			return cfg_error(lineno, "syntax error%s%s", "", "");
		if (nlines == 0)
			return cfg_error(lineno, "setting outside section%s%s", "", "");
		if (setting(lineno, key, val) < 0)
			return -1;
	}
	if (close_section() < 0)
		return -1;
	if (nlines == 0) {
		fprintf(stderr, "%s: no sections\n", cfg_name);
		return -1;
	}
	return 0;
}

static int write_file(const char *path, int flags, const char *text)
{
	int fd = open(path, O_WRONLY | flags);
	size_t len = strlen(text);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, text, len);
	if (close(fd) < 0 || w != (ssize_t)len)
		return -1;
	return 0;
}

static int gpio_attr(const struct gpio_line *g, const char *attr, const char *text)
{
	char path[64];

	snprintf(path, sizeof(path), "gpio/gpio%d/%s", g->line, attr);
	return write_file(path, O_TRUNC, text);
}

static int export_ctl(const char *file, int line)
{
	char num[16];

	snprintf(num, sizeof(num), "%d\n", line);
	return write_file(file, O_APPEND, num);
}

/* Undoes a failed configuration, last line first. */
static void release_all(void)
{
	for (int i = nlines - 1; i >= 0; i--) {
		if (lines[i].configured)
			gpio_attr(&lines[i], "direction", "in\n");
		if (lines[i].exported)
			export_ctl("gpio/unexport", lines[i].line);
	}
}

static int configure_all(void)
{
	for (int i = 0; i < nlines; i++) {
		struct gpio_line *g = &lines[i];
		const char *dir = "in\n";

		if (export_ctl("gpio/export", g->line) < 0) {
			fprintf(stderr, "error: %s: cannot export line %d\n", g->name, g->line);
			return -1;
		}
		g->exported = 1;
		if (g->direction == 1)
			dir = (((g->value > 0) ? 1 : 0) ^ ((g->active_low > 0) ? 1 : 0)) ? "high\n" : "low\n";
		if (gpio_attr(g, "direction", dir) < 0) {
			fprintf(stderr, "error: %s: cannot configure line %d\n", g->name, g->line);
			return -1;
		}
		g->configured = 1;
	}
	return 0;
}

static struct gpio_line *find(const char *name)
{
	for (int i = 0; i < nlines; i++)
		if (!strcmp(lines[i].name, name))
			return &lines[i];
	return NULL;
}

static void command(char *cmd)
{
	char *sp1 = strchr(cmd, ' ');
	char *name, *arg = NULL;
	struct gpio_line *g;
	int is_set;

	if (sp1 == NULL)
		goto bad;
	*sp1 = '\0';
	name = sp1 + 1;
	if (!strcmp(cmd, "set")) {
		is_set = 1;
		arg = strchr(name, ' ');
		if (arg == NULL)
			goto bad;
		*arg++ = '\0';
		if (strcmp(arg, "0") && strcmp(arg, "1"))
			goto bad;
	} else if (!strcmp(cmd, "get")) {
		is_set = 0;
		if (strchr(name, ' ') != NULL)
			goto bad;
	} else {
		goto bad;
	}
	if (*name == '\0')
		goto bad;
	g = find(name);
	if (g == NULL) {
		printf("error: unknown %s\n", name);
		return;
	}
	int inv = g->active_low > 0;

	if (is_set) {
		int v = arg[0] - '0';

		if (g->direction == 0) {
			printf("error: %s is an input\n", name);
			return;
		}
		if (gpio_attr(g, "value", (v ^ inv) ? "1\n" : "0\n") < 0) {
			printf("error: %s: cannot write value\n", name);
			return;
		}
		printf("%s=%d\n", name, v);
	} else {
		char path[64], c = 0;
		int fd;
		ssize_t r = -1;

		snprintf(path, sizeof(path), "gpio/gpio%d/value", g->line);
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			r = read(fd, &c, 1);
			close(fd);
		}
		if (r != 1 || (c != '0' && c != '1')) {
			printf("error: %s: cannot read value\n", name);
			return;
		}
		printf("%s=%d\n", name, (c - '0') ^ inv);
	}
	return;
bad:
	printf("error: bad command\n");
}

int main(int argc, char **argv)
{
	FILE *f;
	char buf[512];

	if (argc != 2) {
		fprintf(stderr, "usage: gpiocfg CONFIG\n");
		return 1;
	}
	cfg_name = argv[1];
	f = fopen(cfg_name, "r");
	if (f == NULL) {
		fprintf(stderr, "error: cannot read %s\n", cfg_name);
		return 2;
	}
	int rc = parse_config(f);

	fclose(f);
	if (rc < 0)
		return 2;
	if (configure_all() < 0) {
		release_all();
		return 3;
	}
	printf("ready: %d lines\n", nlines);
	fflush(stdout);
	while (fgets(buf, sizeof(buf), stdin) != NULL) {
		size_t n = strlen(buf);

		if (n > 0 && buf[n - 1] == '\n')
			buf[--n] = '\0';
		if (!strcmp(buf, "quit"))
			break;
		command(buf);
	}
	for (int i = nlines - 1; i >= 0; i--)
		export_ctl("gpio/unexport", lines[i].line);
	printf("bye\n");
	return 0;
}
