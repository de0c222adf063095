package io.percolate.descriptor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.percolate.model.QueryDescriptor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Query descriptors to and from JSON (schema: {@code selectivity/DESCRIPTOR.md}). Readers
 * ignore fields they do not know, so a version may add fields; a reader refuses a higher
 * format version than it knows.
 */
public final class DescriptorCodec {
    /**
     * Deepest nesting of JSON arrays and objects a reader accepts. A descriptor's own structure
     * is a few levels plus two per predicate level; the limit exists because the JSON parser
     * recurses, and a hostile document nested 100,000 deep would overflow its stack.
     */
    public static final int MAX_NESTING = 256;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private DescriptorCodec() {
    }

    public static byte[] toJson(QueryDescriptor descriptor) {
        try {
            return MAPPER.writeValueAsBytes(descriptor);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a descriptor record failed to serialise", e);
        }
    }

    public static QueryDescriptor fromJson(byte[] json) throws MalformedDescriptorException {
        requireNestingWithinLimit(json);
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new MalformedDescriptorException("not JSON: " + e.getMessage(), e);
        }
        if (tree == null || !tree.isObject()) {
            throw new MalformedDescriptorException("not a JSON object");
        }
        JsonNode version = tree.get("version");
        if (version == null || !version.canConvertToInt()) {
            throw new MalformedDescriptorException("no format version");
        }
        if (version.asInt() > QueryDescriptor.FORMAT_VERSION) {
            throw new MalformedDescriptorException("format version " + version.asInt()
                    + " is newer than this reader's " + QueryDescriptor.FORMAT_VERSION);
        }
        try {
            return MAPPER.treeToValue(tree, QueryDescriptor.class);
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            throw new MalformedDescriptorException("invalid descriptor: " + e.getMessage(), e);
        }
    }

    /**
     * Counts bracket depth outside strings before the parser sees the bytes. Scanning bytes is
     * safe for UTF-8: no byte of a multi-byte character is an ASCII bracket, quote or backslash.
     */
    private static void requireNestingWithinLimit(byte[] json) throws MalformedDescriptorException {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        for (byte b : json) {
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                if (++depth > MAX_NESTING) {
                    throw new MalformedDescriptorException("nested deeper than " + MAX_NESTING + " levels");
                }
            } else if (b == '}' || b == ']') {
                depth--;
            }
        }
    }

    static String toJsonString(QueryDescriptor descriptor) {
        return new String(toJson(descriptor), StandardCharsets.UTF_8);
    }
}
