package io.percolate.descriptor;

import io.percolate.model.QueryDescriptor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestDescriptorStore {
    @TempDir
    java.nio.file.Path tmp;

    private DescriptorStore store() {
        return new DescriptorStore(new Configuration(), new Path(tmp.toUri().toString(), "descriptors"));
    }

    @Test
    void publish_thenRead_returnsTheDescriptorAndOwner() throws Exception {
        DescriptorStore store = store();
        store.publish(TestDescriptorCodec.DESCRIPTOR);
        DescriptorStore.Stored stored = store.read("HIVE_20261122101010_AB-CD");
        assertEquals(TestDescriptorCodec.DESCRIPTOR, stored.descriptor());
        assertEquals(System.getProperty("user.name"), stored.owner());
        // read without Hadoop's shell, the owner is still the one Hadoop's local file system reports
        Path file = store.pathOf("HIVE_20261122101010_AB-CD");
        assertEquals(file.getFileSystem(new Configuration()).getFileStatus(file).getOwner(), stored.owner());
    }

    @Test
    void publish_replacesAndLeavesNoTemporaryFile() throws Exception {
        DescriptorStore store = store();
        store.publish(TestDescriptorCodec.DESCRIPTOR);
        QueryDescriptor second = QueryDescriptor.of(TestDescriptorCodec.DESCRIPTOR.queryId(), "alice", "select 2",
                2L, TestDescriptorCodec.DESCRIPTOR.dag());
        store.publish(second);
        assertEquals("select 2", store.read(second.queryId()).descriptor().queryText());
        FileSystem fs = store.dir().getFileSystem(new Configuration());
        assertEquals(1, Arrays.stream(fs.listStatus(store.dir())).filter(s -> !s.getPath().getName().endsWith(".crc")).count());
        assertEquals((short) 01733, fs.getFileStatus(store.dir()).getPermission().toShort());
        assertEquals((short) 0640, fs.getFileStatus(store.pathOf(second.queryId())).getPermission().toShort());
        assertTrue(store.delete(second.queryId()));
        assertFalse(store.delete(second.queryId()));
        assertThrows(FileNotFoundException.class, () -> store.read(second.queryId()));
    }

    @Test
    void read_missingOrCorrupt_failsClearly() throws Exception {
        DescriptorStore store = store();
        assertThrows(FileNotFoundException.class, () -> store.read("nope"));
        Files.createDirectories(tmp.resolve("descriptors"));
        Files.writeString(tmp.resolve("descriptors/broken.json"), "{\"version\": 1, \"queryId\": ");
        assertThrows(MalformedDescriptorException.class, () -> store.read("broken"));
    }

    @Test
    void read_refusesADescriptorOfAnotherQuery() throws Exception {
        DescriptorStore store = store();
        store.publish(TestDescriptorCodec.DESCRIPTOR);
        Files.copy(tmp.resolve("descriptors/hive_20261122101010_ab-cd.json"), tmp.resolve("descriptors/other.json"));
        assertThrows(MalformedDescriptorException.class, () -> store.read("other"));
    }
}
