package io.percolate.timing;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;

/**
 * A time model file to and from JSON (format: {@code selectivity/TIMING.md}). Readers ignore
 * fields they do not know and refuse a format version newer than {@link TimeModel#FORMAT_VERSION}.
 */
public final class TimeModelCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            // a pooled fit has no operator: left out rather than written as null
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private TimeModelCodec() {
    }

    public static byte[] toJson(TimeModel model) {
        try {
            return MAPPER.writeValueAsBytes(model);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a time model failed to serialise", e);
        }
    }

    /** @throws IOException naming what is wrong with the file */
    public static TimeModel fromJson(byte[] json) throws IOException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IOException("time model is not JSON: " + e.getMessage(), e);
        }
        if (tree == null || !tree.isObject() || !tree.path("version").canConvertToInt()) {
            throw new IOException("time model has no format version");
        }
        if (tree.get("version").asInt() > TimeModel.FORMAT_VERSION) {
            throw new IOException("time model format version " + tree.get("version").asInt()
                    + " is newer than this reader's " + TimeModel.FORMAT_VERSION);
        }
        try {
            return MAPPER.treeToValue(tree, TimeModel.class);
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            throw new IOException("invalid time model: " + e.getMessage(), e);
        }
    }
}
