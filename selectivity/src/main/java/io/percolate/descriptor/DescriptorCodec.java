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

    static String toJsonString(QueryDescriptor descriptor) {
        return new String(toJson(descriptor), StandardCharsets.UTF_8);
    }
}
