package io.percolate.selectivity;

import java.util.regex.Pattern;

/**
 * A SQL LIKE pattern: {@code %} any run, {@code _} one character, {@code \} escapes the next
 * character. Knows its literal prefix (what a histogram range can estimate) and matches values
 * (what the most-common list can count exactly).
 */
final class LikePattern {
    private final String prefix;
    private final boolean literal;
    private final boolean prefixOnly;
    private final Pattern regex;

    private LikePattern(String prefix, boolean literal, boolean prefixOnly, Pattern regex) {
        this.prefix = prefix;
        this.literal = literal;
        this.prefixOnly = prefixOnly;
        this.regex = regex;
    }

    static LikePattern parse(String pattern) {
        StringBuilder prefix = new StringBuilder();
        StringBuilder regex = new StringBuilder();
        boolean inPrefix = true;
        boolean literal = true;
        int wildcards = 0;
        boolean endsWithPercent = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            endsWithPercent = false;
            if (c == '\\' && i + 1 < pattern.length()) {
                char next = pattern.charAt(++i);
                regex.append(Pattern.quote(String.valueOf(next)));
                if (inPrefix) {
                    prefix.append(next);
                }
            } else if (c == '%' || c == '_') {
                inPrefix = false;
                literal = false;
                wildcards++;
                endsWithPercent = c == '%';
                regex.append(c == '%' ? ".*" : ".");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
                if (inPrefix) {
                    prefix.append(c);
                }
            }
        }
        // 'abc%' and 'abc%%' are prefix patterns; 'abc%d' is not
        String trimmed = pattern.replaceAll("%+$", "");
        boolean prefixOnly = endsWithPercent && !trimmed.contains("%") && !trimmed.contains("_")
                && !trimmed.contains("\\");
        return new LikePattern(prefix.toString(), literal, prefixOnly && wildcards > 0,
                Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    /** The characters before the first wildcard. */
    String prefix() {
        return prefix;
    }

    /** No wildcard at all: the pattern is an equality. */
    boolean isLiteral() {
        return literal;
    }

    /** {@code prefix%}: exactly the strings that start with the prefix. */
    boolean isPrefixOnly() {
        return prefixOnly;
    }

    boolean matches(String value) {
        return regex.matcher(value).matches();
    }
}
