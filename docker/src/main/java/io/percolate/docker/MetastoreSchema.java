package io.percolate.docker;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.PersistenceManagerProvider;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.datanucleus.ClassLoaderResolver;
import org.datanucleus.api.jdo.JDOPersistenceManagerFactory;
import org.datanucleus.store.StoreManager;

import javax.jdo.PersistenceManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Creates the Hive metastore's tables in its empty database before the metastore starts (run by
 * the metastore container, {@code percolate-daemon metastore}). Hive's own schema tool needs SQL
 * scripts that the Maven jars do not carry, and letting the metastore create tables as it first
 * needs them deadlocks on PostgreSQL: DataNucleus adds a new table's foreign keys on a second
 * connection while the first one's transaction holds the referenced table. Here every persistent
 * class of Hive's {@code package.jdo} is handed to DataNucleus at once, through the persistence
 * settings the metastore itself uses, with no transaction open. Creating what exists is a no-op.
 */
public final class MetastoreSchema {
    private static final Pattern ELEMENT = Pattern.compile("<(package|class)\\s+name=\"([^\"]+)\"");

    private MetastoreSchema() {
    }

    public static void main(String[] args) throws IOException {
        Configuration conf = MetastoreConf.newMetastoreConf(); // hive-site.xml from the class path
        MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.AUTO_CREATE_ALL, true);
        PersistenceManagerProvider.updatePmfProperties(conf);
        List<String> classes = persistentClasses();
        PersistenceManager pm = PersistenceManagerProvider.getPersistenceManager();
        try {
            var nucleus = ((JDOPersistenceManagerFactory) pm.getPersistenceManagerFactory()).getNucleusContext();
            StoreManager store = nucleus.getStoreManager();
            ClassLoaderResolver loader = nucleus.getClassLoaderResolver(MetastoreSchema.class.getClassLoader());
            store.manageClasses(loader, classes.toArray(String[]::new));
        } finally {
            pm.close();
        }
        System.out.println("metastore schema: " + classes.size() + " persistent classes' tables present");
    }

    /** The classes Hive maps to tables, read from the {@code package.jdo} on the class path. */
    static List<String> persistentClasses() throws IOException {
        String jdo;
        try (InputStream in = MetastoreSchema.class.getClassLoader().getResourceAsStream("package.jdo")) {
            if (in == null) {
                throw new IOException("no package.jdo on the class path (it ships in hive-exec)");
            }
            jdo = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> classes = new ArrayList<>();
        String pkg = null;
        Matcher m = ELEMENT.matcher(jdo);
        while (m.find()) {
            if (m.group(1).equals("package")) {
                pkg = m.group(2);
            } else if (pkg != null) {
                classes.add(pkg + "." + m.group(2));
            }
        }
        if (classes.isEmpty()) {
            throw new IOException("package.jdo names no persistent class");
        }
        return classes;
    }
}
