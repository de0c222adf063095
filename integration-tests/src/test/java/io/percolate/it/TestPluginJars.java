package io.percolate.it;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jars an operator installs (the {@code -cluster} jars that {@code package} builds) hold our
 * classes and relocated copies of what we use, and nothing that could clash with the Hadoop,
 * Hive or Guava already in a ResourceManager or HiveServer2.
 */
final class TestPluginJars {

    @Test
    void schedulerJar_isSelfContainedAndRelocated() throws Exception {
        Path jar = clusterJar("scheduler-tls");
        assertOnlyOurClasses(jar, "io/percolate/scheduler/TlsScheduler.class", "io/percolate/scheduler/QueryAwarePolicy.class");
        assertReadsDescriptorsAlone(jar);
    }

    @Test
    void hookJar_isSelfContainedAndRelocated() throws Exception {
        Path jar = clusterJar("hive-hook");
        assertOnlyOurClasses(jar, "io/percolate/hive/PercolateHook.class");
        assertReadsDescriptorsAlone(jar);
    }

    private static void assertOnlyOurClasses(Path jar, String... required) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            List<String> classes = Collections.list(file.entries()).stream().map(e -> e.getName())
                    .filter(n -> n.endsWith(".class")).toList();
            for (String r : required) {
                assertTrue(classes.contains(r), jar + " lacks " + r);
            }
            assertTrue(classes.contains("io/percolate/model/QueryDag.class"), jar + " lacks the query model");
            assertTrue(classes.contains("io/percolate/shaded/jackson/databind/ObjectMapper.class"),
                    jar + " lacks relocated Jackson");
            List<String> foreign = classes.stream().filter(n -> !n.startsWith("io/percolate/")).toList();
            assertEquals(List.of(), foreign, jar + " bundles classes outside io/percolate");
        }
    }

    /**
     * Loads the jar with nothing else on the class path (no Jackson, no Hadoop) and parses a
     * descriptor: the relocated Jackson is complete and wired to our records.
     */
    private static void assertReadsDescriptorsAlone(Path jar) throws Exception {
        String json = """
                {"version":1,"queryId":"q1","user":"alice","queryText":"select 1","publishedAtMillis":1,
                 "dag":{"jobs":[{"stageId":"Stage-1","alternatives":[],"parents":[],"operator":"GROUP_BY",
                 "operators":["TS","GBY"],"inputTables":[],"predicates":[{"kind":"opaque","text":"x"}],
                 "projections":[],"keys":[],"estimate":{"inputBytes":1,"outputBytes":1,"mapTasks":1,
                 "reduceTasks":0,"mapTaskSeconds":2.0,"reduceTaskSeconds":0.0,"confidence":"LOW"}}]}}""";
        try (URLClassLoader alone = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> codec = alone.loadClass("io.percolate.descriptor.DescriptorCodec");
            Method fromJson = codec.getMethod("fromJson", byte[].class);
            Object descriptor = fromJson.invoke(null, (Object) json.getBytes(StandardCharsets.UTF_8));
            Object dag = descriptor.getClass().getMethod("dag").invoke(descriptor);
            assertEquals(2.0, (double) dag.getClass().getMethod("totalWrd").invoke(dag));
        }
    }

    /** {@code <module>/target/percolate-<module>-<version>-cluster.jar}, built by {@code mvn package}. */
    private static Path clusterJar(String module) throws IOException {
        Path target = Path.of("..", module, "target");
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            return files.filter(p -> p.getFileName().toString().endsWith("-cluster.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no cluster jar in " + target.toAbsolutePath()
                            + File.separator + "; run mvn verify, whose package phase builds it"));
        }
    }
}
