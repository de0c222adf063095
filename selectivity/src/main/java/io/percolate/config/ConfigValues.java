package io.percolate.config;

import org.apache.hadoop.conf.Configuration;

/**
 * Typed reads of Percolate's configuration keys that fail with the key's name on a bad value,
 * where Hadoop's own getters fall back to the default (a misspelt {@code ture} reads as false)
 * or throw a message naming neither key nor format. Every module's config snapshot reads
 * through these.
 */
public final class ConfigValues {
    private ConfigValues() {
    }

    public static long wholeNumber(Configuration conf, String key, long defaultValue) {
        String text = conf.getTrimmed(key);
        try {
            return text == null ? defaultValue : Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + text + "'");
        }
    }

    public static double number(Configuration conf, String key, double defaultValue) {
        String text = conf.getTrimmed(key);
        try {
            return text == null ? defaultValue : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got '" + text + "'");
        }
    }

    public static boolean flag(Configuration conf, String key, boolean defaultValue) {
        String text = conf.getTrimmed(key);
        if (text == null) {
            return defaultValue;
        }
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException(key + " must be true or false, got '" + text + "'");
    }
}
