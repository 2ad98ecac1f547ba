BEGIN TRANSACTION;
CREATE TABLE results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    mode TEXT NOT NULL,
    variants TEXT NOT NULL,
    player1 TEXT NOT NULL,
    bot1 TEXT,
    player2 TEXT NOT NULL,
    bot2 TEXT,
    score1 INTEGER,
    score2 INTEGER,
    winner INTEGER,
    reason TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    duration REAL NOT NULL,
    replay TEXT
);
INSERT INTO "results" VALUES(1,'2026-11-30T16:59:11+00:00','match','spit','V4','Computer (hard)','hard','Computer (easy)','easy',16,117,0,'score',6,12.5,NULL);
INSERT INTO "results" VALUES(2,'2026-11-30T16:59:11+00:00','game','speed','','Computer (hard)','hard','Computer (easy)','easy',NULL,NULL,0,'P6',1,12.5,NULL);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('results',2);
COMMIT;
