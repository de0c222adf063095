package io.percolate.scheduler.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.percolate.scheduler.registry.RegistrySnapshot;

/** Writes a registry snapshot as the document {@link RegistryDocument} describes. */
final class RegistryJson {
    /** thread-safe and configured once; record components are serialised in declaration order */
    private static final ObjectWriter WRITER = JsonMapper.builder().build().writerFor(RegistryDocument.class);

    private RegistryJson() {
    }

    static byte[] write(RegistrySnapshot snapshot) throws JsonProcessingException {
        return WRITER.writeValueAsBytes(RegistryDocument.of(snapshot));
    }
}
