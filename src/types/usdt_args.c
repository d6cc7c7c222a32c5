// SPDX-License-Identifier: MIT
/* USDT argument specifications (the systemtap SDT note format). */
#include "types/usdt_args.h"
#include "sys/arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned types_usdt_arg_count(const char *args)
{
	unsigned n = 0;

	for (const char *p = args; *p;) {
		p += strspn(p, " ");
		if (!*p)
			break;
		n++;
		p += strcspn(p, " ");
	}
	return n;
}

/* "%rdi" at *p: the register's pt_regs offset, *p moved past it; -1 if none */
static int parse_reg(const char **p)
{
	char name[16];
	size_t len;

	if (**p != '%')
		return -1;
	len = strspn(*p + 1, "abcdefghijklmnopqrstuvwxyz0123456789");
	if (!len || len >= sizeof(name))
		return -1;
	memcpy(name, *p + 1, len);
	name[len] = 0;
	*p += len + 1;
	return sys_arch_reg_offset(name);
}

int types_usdt_arg(const char *args, unsigned n, struct usdt_arg *out, char *err, size_t errlen)
{
	const char *p = args, *tok, *at;
	char text[128];
	size_t len = 0;
	long size = 8;

	for (unsigned i = 0; i <= n; i++) {
		p += strspn(p, " ");
		if (!*p) {
			snprintf(err, errlen, "it has %u argument%s", i, i == 1 ? "" : "s");
			return -1;
		}
		tok = p;
		len = strcspn(p, " ");
		p += len;
	}
	snprintf(text, sizeof(text), "%.*s", (int)len, tok);
	memset(out, 0, sizeof(*out));
	/* SIZE@ (negative: signed); without it, 8 bytes */
	at = strchr(text, '@');
	const char *op = text;
	if (at) {
		char *end;
		size = strtol(text, &end, 10);
		if (end != at)
			goto bad;
		op = at + 1;
	}
	if (size < -8 || size > 8) /* and labs() of LONG_MIN would be undefined */
		goto bad;
	out->is_signed = size < 0;
	out->size = (unsigned)labs(size);
	if (out->size != 1 && out->size != 2 && out->size != 4 && out->size != 8)
		goto bad;
	if (*op == '$') {
		char *end;
		out->kind = USDT_ARG_CONST;
		out->val = strtoll(op + 1, &end, 0);
		if (*end || end == op + 1)
			goto bad;
		if (out->size < 8) {
			/* the constant has the operand's size: 4@$-1 is 4294967295, -4@$-1 is -1 */
			unsigned bits = out->size * 8;
			uint64_t v = (uint64_t)out->val & ((1ull << bits) - 1);
			if (out->is_signed && (v >> (bits - 1)))
				v |= ~((1ull << bits) - 1);
			out->val = (int64_t)v;
		}
		return 0;
	}
	if (*op == '%') {
		const char *q = op;
		out->kind = USDT_ARG_REG;
		out->reg = (int16_t)parse_reg(&q);
		if (out->reg < 0 || *q)
			goto bad;
		return 0;
	}
	/* DISP(%reg) */
	{
		char *end;
		const char *q;
		out->kind = USDT_ARG_MEM;
		out->val = *op == '(' ? 0 : strtoll(op, &end, 0);
		q = *op == '(' ? op : end;
		if (*q != '(')
			goto bad; /* sym(%rip) and other forms */
		q++;
		out->reg = (int16_t)parse_reg(&q);
		out->index = -1;
		out->scale = 1;
		if (out->reg < 0)
			goto bad;
		if (*q == ',') {
			/* (%base,%index[,scale]) */
			q++;
			out->index = (int16_t)parse_reg(&q);
			if (out->index < 0)
				goto bad;
			if (*q == ',') {
				long sc = strtol(q + 1, &end, 10);
				if (sc != 1 && sc != 2 && sc != 4 && sc != 8)
					goto bad;
				out->scale = (uint8_t)sc;
				q = end;
			}
		}
		if (strcmp(q, ")"))
			goto bad;
		return 0;
	}
bad:
	snprintf(err, errlen, "its argument %u is at '%s', a place lantern cannot read yet", n, text);
	return -1;
}
