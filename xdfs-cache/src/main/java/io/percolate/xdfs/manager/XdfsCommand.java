package io.percolate.xdfs.manager;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.percolate.security.SharedSecret;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.manager.api.ManagerApi;
import io.percolate.xdfs.manager.api.ManagerClient;
import io.percolate.xdfs.manager.api.WarmResult;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./percolate xdfs <command>}: run the metadata manager, or ask it for its state, to warm a
 * path, or to invalidate one. Settings come from core-site.xml on the classpath (HADOOP_CONF_DIR)
 * and {@code -D key=value}; {@code --manager host:port} overrides percolate.xdfs.manager.address.
 */
public final class XdfsCommand {

    static final String USAGE = """
            usage: xdfs <command> [-D key=value ...] [--manager host:port]
              manager                 run the metadata manager until stopped
              state                   the manager's view of the cache, as JSON
              warm <path> [--wait]    copy every block of the files under an xdfs path into the cache,
                                      under the bandwidth cap; --wait until all are cached
              invalidate <path>       remove the cached copies of the files under an xdfs path""";
    private static final Duration WARM_POLL = Duration.ofSeconds(2);

    private XdfsCommand() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Configuration conf = new Configuration();
        List<String> words = new ArrayList<>();
        boolean wait = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if ((arg.equals("-D") || arg.equals("--manager")) && i + 1 < args.length) {
                String value = args[++i];
                if (arg.equals("--manager")) {
                    conf.set(ManagerConfig.ADDRESS, value);
                } else if (value.indexOf('=') > 0) {
                    conf.set(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
                } else {
                    return usage(err, "-D needs key=value, got '" + value + "'");
                }
            } else if (arg.equals("--wait")) {
                wait = true;
            } else if (arg.startsWith("-")) {
                return usage(err, "unknown option " + arg);
            } else {
                words.add(arg);
            }
        }
        if (words.isEmpty()) {
            return usage(err, "no command");
        }
        String command = words.get(0);
        if (command.equals("manager") && words.size() == 1) {
            runManager(conf, out);
            return 0;
        }
        ManagerConfig managerConfig = ManagerConfig.from(conf);
        if (managerConfig.address().isEmpty()) {
            return usage(err, "no manager: set " + ManagerConfig.ADDRESS + " or pass --manager host:port");
        }
        ManagerClient client;
        try {
            client = new ManagerClient(managerConfig.address().get(), managerConfig.timeout(),
                    SharedSecret.load(managerConfig.secretFile()));
        } catch (IOException e) {
            err.println("xdfs: " + e.getMessage());
            return 1;
        }
        ObjectWriter json = ManagerApi.json().writerWithDefaultPrettyPrinter();
        try {
            switch (words.size() == 1 ? command : words.size() == 2 ? command + " <path>" : "") {
                case "state" -> out.println(json.writeValueAsString(client.state()));
                case "warm <path>" -> out.println(json.writeValueAsString(warm(client, words.get(1), wait, out)));
                case "invalidate <path>" -> out.println(json.writeValueAsString(client.invalidate(words.get(1))));
                default -> {
                    return usage(err, "unknown command: " + String.join(" ", words));
                }
            }
        } catch (IOException e) {
            err.println("xdfs: " + e.getMessage()); // the manager's own reason, or why it could not be reached
            return 1;
        }
        return 0;
    }

    /**
     * Warms a path; with {@code wait}, warms again whenever the manager's transfers are idle, until
     * every block is cached (blocks dropped by a full queue get their turn) or nothing progresses.
     */
    private static WarmResult warm(ManagerClient client, String path, boolean wait, PrintStream out)
            throws IOException, InterruptedException {
        WarmResult result = client.warm(path);
        int lastCached = -1;
        while (wait && result.cached() < result.blocks() && result.cached() > lastCached) {
            out.printf("warming %s: %d of %d blocks cached%n", path, result.cached(), result.blocks());
            while (client.state().pendingFills() > 0) {
                Thread.sleep(WARM_POLL.toMillis());
            }
            lastCached = result.cached();
            result = client.warm(path);
        }
        return result;
    }

    private static void runManager(Configuration conf, PrintStream out) throws IOException, InterruptedException {
        XdfsManager manager = XdfsManager.start(conf);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            manager.close();
            stopped.countDown();
        }, "xdfs-manager-shutdown"));
        InetSocketAddress address = manager.address();
        out.println("xdfs manager listening on " + address.getHostString() + ":" + address.getPort());
        stopped.await();
    }

    private static int usage(PrintStream err, String problem) {
        err.println("xdfs: " + problem);
        err.println(USAGE);
        return 2;
    }
}
