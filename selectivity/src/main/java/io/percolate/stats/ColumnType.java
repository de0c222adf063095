package io.percolate.stats;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The kinds of column statistics know. Every value maps to a numeric <em>key</em> that keeps
 * the column's order, so histograms, ranges and joins work the same way on every kind:
 * <ul>
 *   <li>{@code NUMERIC}: the value as a double (integers past 2^53 lose their last digits);</li>
 *   <li>{@code DATE}: days since 1970-01-01;</li>
 *   <li>{@code STRING}: the first six bytes of the UTF-8 form as a big-endian integer (shorter
 *       strings padded with zero bytes). Hive compares strings byte-wise, so the key order is
 *       the column's order; strings that share their first six bytes share a key.</li>
 * </ul>
 */
public enum ColumnType {
    NUMERIC, DATE, STRING;

    /** Bytes of a string that make its key: 48 bits, exact in a double. */
    static final int STRING_KEY_BYTES = 6;

    /**
     * The kind of a Hive column type name ({@code int}, {@code decimal(15,2)}, {@code date},
     * {@code varchar(25)}, …), empty for types statistics do not cover (timestamp, boolean,
     * complex types).
     */
    public static Optional<ColumnType> ofHiveType(String hiveType) {
        String t = hiveType.trim().toLowerCase(Locale.ROOT);
        int paren = t.indexOf('(');
        String base = paren < 0 ? t : t.substring(0, paren).trim();
        return switch (base) {
            case "tinyint", "smallint", "int", "integer", "bigint", "float", "double", "double precision",
                    "decimal", "numeric" -> Optional.of(NUMERIC);
            case "date" -> Optional.of(DATE);
            case "string", "varchar", "char" -> Optional.of(STRING);
            default -> Optional.empty();
        };
    }

    /** The key of a constant rendered as text (as the hook renders predicate operands), if it parses. */
    public OptionalDouble key(String text) {
        switch (this) {
            case NUMERIC:
                try {
                    double d = Double.parseDouble(text.trim());
                    return Double.isFinite(d) ? OptionalDouble.of(d == 0 ? 0.0 : d) : OptionalDouble.empty();
                } catch (NumberFormatException e) {
                    return OptionalDouble.empty();
                }
            case DATE:
                String s = text.trim();
                try {
                    // a timestamp constant compared with a date keeps its date part
                    return OptionalDouble.of(LocalDate.parse(s.length() > 10 ? s.substring(0, 10) : s).toEpochDay());
                } catch (DateTimeParseException e) {
                    return OptionalDouble.empty();
                }
            default:
                return OptionalDouble.of(stringKey(text));
        }
    }

    /** The key of a string: its first six UTF-8 bytes, big-endian, unsigned. */
    static double stringKey(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        long key = 0;
        for (int i = 0; i < STRING_KEY_BYTES; i++) {
            key = (key << 8) | (i < bytes.length ? bytes[i] & 0xff : 0);
        }
        return key;
    }

    /**
     * The canonical text of a non-string value given by its key, as stored in a most-common
     * values list: integral numbers without a fraction, dates as ISO dates.
     */
    String text(double key) {
        if (this == DATE) {
            return LocalDate.ofEpochDay((long) key).toString();
        }
        if (key == Math.rint(key) && Math.abs(key) < 1e15) {
            return Long.toString((long) key);
        }
        return Double.toString(key);
    }
}
