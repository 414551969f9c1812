//! The server's parts that need no network: the host key, admission, the
//! database's name in the log.

use super::*;

#[test]
fn the_host_key_is_made_once_private_and_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("serve/host_key");
    let made = host_key(&path).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dir = path.parent().unwrap();
        let mode = std::fs::metadata(dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "the server's folder is its owner's");
    }
    let again = host_key(&path).unwrap();
    assert_eq!(
        made.public_key().fingerprint(HashAlg::Sha256),
        again.public_key().fingerprint(HashAlg::Sha256),
        "clients see the same key every time"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = host_key(&path).unwrap_err().to_string();
        assert!(
            e.contains("read by others") && e.contains("host_key"),
            "{e}"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    std::fs::write(&path, "not a key").unwrap();
    let e = host_key(&path).unwrap_err().to_string();
    assert!(e.contains("not an OpenSSH private key"), "{e}");
}

#[test]
fn admission_bounds_connections_in_all_per_address_and_per_minute() {
    let cfg = ServeConfig {
        max_connections: 3,
        max_per_address: 2,
        connects_per_minute: 4,
        ..ServeConfig::default()
    };
    let a: IpAddr = "10.0.0.1".parse().unwrap();
    let b: IpAddr = "10.0.0.2".parse().unwrap();
    let c: IpAddr = "10.0.0.3".parse().unwrap();
    let t0 = Instant::now();
    let mut adm = Admission::default();
    assert!(adm.admit(a, &cfg, t0).is_ok());
    assert!(adm.admit(a, &cfg, t0).is_ok());
    assert_eq!(
        adm.admit(a, &cfg, t0),
        Err("too many connections from this address")
    );
    assert!(adm.admit(b, &cfg, t0).is_ok());
    assert_eq!(adm.admit(c, &cfg, t0), Err("the server is full"));
    adm.release(a);
    assert!(adm.admit(c, &cfg, t0).is_ok());
    // a has tried 3 times this minute and is at its limit of 4 after one
    // more.
    adm.release(a);
    assert!(adm.admit(a, &cfg, t0).is_ok());
    adm.release(a);
    assert_eq!(
        adm.admit(a, &cfg, t0),
        Err("too many new connections a minute from this address")
    );
    // A minute later a may come again.
    assert!(adm.admit(a, &cfg, t0 + Duration::from_secs(61)).is_ok());
}

/// The per-address limits count an IPv6 host by its /64 (one host is
/// commonly given a whole /64), and an IPv4 address mapped into IPv6 as
/// that IPv4 address.
#[test]
fn an_ipv6_network_counts_as_one_address() {
    let cfg = ServeConfig {
        max_per_address: 2,
        ..ServeConfig::default()
    };
    let ip = |s: &str| s.parse::<IpAddr>().unwrap();
    let t0 = Instant::now();
    let mut adm = Admission::default();
    assert!(adm.admit(ip("2001:db8:1:2::1"), &cfg, t0).is_ok());
    assert!(adm.admit(ip("2001:db8:1:2:ffff::9"), &cfg, t0).is_ok());
    assert_eq!(
        adm.admit(ip("2001:db8:1:2:abcd:1:2:3"), &cfg, t0),
        Err("too many connections from this address")
    );
    // The next /64 is another source.
    assert!(adm.admit(ip("2001:db8:1:3::1"), &cfg, t0).is_ok());
    // A place given back by any address of the /64 frees it for all.
    adm.release(ip("2001:db8:1:2::1"));
    assert!(adm.admit(ip("2001:db8:1:2::77"), &cfg, t0).is_ok());
    // IPv4, plain and mapped into IPv6, is one source.
    assert!(adm.admit(ip("192.0.2.7"), &cfg, t0).is_ok());
    assert!(adm.admit(ip("::ffff:192.0.2.7"), &cfg, t0).is_ok());
    assert_eq!(
        adm.admit(ip("192.0.2.7"), &cfg, t0),
        Err("too many connections from this address")
    );
    adm.release(ip("::ffff:192.0.2.7"));
    assert!(adm.admit(ip("192.0.2.7"), &cfg, t0).is_ok());
    assert_eq!(adm.total, 5);
}

#[test]
fn the_log_never_shows_a_database_password() {
    let dir = Path::new("/srv/dekadoku");
    assert_eq!(
        describe_db("", dir),
        "/srv/dekadoku/players.sqlite3".to_string()
    );
    assert_eq!(
        describe_db("postgres://game:secret@db.example/dekadoku", dir),
        "PostgreSQL user=game host=db.example port=5432 dbname=dekadoku"
    );
    assert_eq!(
        describe_db("host=db.example dbname=dk password=secret", dir),
        "PostgreSQL host=db.example dbname=dk"
    );
    // Every way libpq lets a password be written: quoted with spaces,
    // spaces around `=`, escaped quotes, in a URL's query, on a socket
    // path.
    for conninfo in [
        "host=db.example password='hunter two' dbname=dk",
        "host=db.example password = hunter2 dbname=dk",
        r"host=db.example password='hun\'ter2' dbname=dk",
        "postgresql://db.example/dk?user=game&password=hunter2",
        "postgres://game:hunter2@db.example:5433/dk",
        "host=/run/postgresql user=game password=hunter2",
    ] {
        let shown = describe_db(conninfo, dir);
        assert!(
            !shown.contains("hun") && !shown.contains("ter"),
            "{conninfo:?} shown as {shown:?}"
        );
        assert!(shown.starts_with("PostgreSQL "), "{shown}");
    }
    assert_eq!(
        describe_db("postgres://game:hunter2@db.example:5433/dk", dir),
        "PostgreSQL user=game host=db.example port=5433 dbname=dk"
    );
    assert_eq!(
        describe_db("host=/run/postgresql user=game password=hunter2", dir),
        "PostgreSQL user=game host=/run/postgresql"
    );
    // A string the library cannot parse is not repeated.
    let shown = describe_db("host=db.example password='hunter2", dir);
    assert!(!shown.contains("hunter2"), "{shown}");
    // Which strings are PostgreSQL, which an SQLite file.
    assert!(is_postgres("postgresql://db/dk"));
    assert!(is_postgres("host=/run/postgresql dbname=dk"));
    assert!(!is_postgres("/var/lib/dekadoku/players.sqlite3"));
    assert!(!is_postgres("players=1.sqlite3"));
}

/// A game that panics ends its own session: the panic is caught, the
/// client is given its screen back with a note, and what the log says of
/// the end names the panic.
#[test]
fn a_panicking_game_ends_its_session_only() {
    struct Breaks(Mutex<Vec<Vec<u8>>>);
    impl ToClient for Breaks {
        fn send(&self, bytes: Vec<u8>) -> Result<bool, Gone> {
            let first = {
                let mut sent = self.0.lock().unwrap();
                sent.push(bytes);
                sent.len() == 1
            };
            if first {
                panic!("a frame could not be drawn");
            }
            Ok(true)
        }
        fn has_room(&self) -> bool {
            true
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let store = open_store("", tmp.path()).unwrap();
    let key = PlayerKey {
        fingerprint: "SHA256:panics".into(),
        algorithm: "ssh-ed25519".into(),
    };
    let p = store.player(&key, 1).unwrap();
    let shared = Arc::new(Shared {
        store,
        pool: Mutex::new(Pool::new(tmp.path().join("pool"))),
        themes: Themes::bundled(),
        max_import_side: 25,
        job_time: Duration::from_secs(5),
        job_memory: Some(1 << 30),
        job_slots: Slots::new(1),
    });
    let who = Who {
        id: p.id,
        name: None,
    };
    let term = Term {
        size: (80, 24),
        env: HashMap::new(),
    };
    let (_tx, rx) = crossbeam_channel::bounded(4);
    let client = Breaks(Mutex::new(Vec::new()));
    let peer: SocketAddr = "127.0.0.1:1".parse().unwrap();
    let end = play_caught(Arc::clone(&shared), &who, &term, rx, &client, &peer, false);
    assert_eq!(end, "panic: a frame could not be drawn");
    let sent = client.0.lock().unwrap();
    assert_eq!(sent.last().map(Vec::as_slice), Some(PANIC_NOTE));
    // The store (and so the server) goes on.
    assert_eq!(shared.store.player(&key, 2).unwrap().id, p.id);
}
