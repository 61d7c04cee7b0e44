//! The terminal session's commands: reading a line, playing the person's
//! move and the engine's reply, hints, previews, undo and the end of a game.

use super::*;

impl Session {
    fn say(&mut self, text: &str) -> Result<(), PlayError> {
        self.prompt(&format!("{text}\n"))
    }

    fn prompt(&mut self, text: &str) -> Result<(), PlayError> {
        Ok(console::write(Stream::Output, text)?)
    }

    fn show_board(&mut self) -> Result<(), PlayError> {
        let [white, black] = &self.game.labels;
        let text = diagram::view(self.game.game.position(), self.game.human, [white, black]);
        self.say(&text)
    }

    /// Starts a new game: side drawn, engine told.
    fn new_game(&mut self) -> Result<(), PlayError> {
        let human = match self.args.side {
            SideChoice::White => Side::White,
            SideChoice::Black => Side::Black,
            SideChoice::Random => random_side(),
        };
        let level = self.args.level.name();
        let engine = human.opponent();
        let mut names = [String::new(), String::new()];
        names[human.index()] = self.args.name.clone();
        names[engine.index()] = format!("{} ({level})", self.engine_name);
        let mut labels = [String::new(), String::new()];
        labels[human.index()] = format!("{} ({})", self.args.name, human.name());
        labels[engine.index()] = format!("{} ({}, {level})", self.engine_name, engine.name());
        self.game = Match {
            game: Game::new(self.start),
            human,
            names,
            labels,
            ending: None,
        };
        self.engine.send("ucinewgame")?;
        self.say(&format!(
            "New game: you play {} against {} at level {level}. Type help for the commands.",
            human.name(),
            self.engine_name
        ))
    }

    /// Reads commands until the person quits or input ends.
    pub(super) fn run(&mut self) -> Result<(), PlayError> {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        self.new_game()?;
        let mut show = true;
        loop {
            if self.game.ending.is_none() {
                if let Some((result, end)) = self.game.game.game_over() {
                    self.finish(Ending::Rules(result, end))?;
                    show = false;
                } else if self.game.game.position().side_to_move() != self.game.human {
                    self.engine_move()?;
                    show = true;
                    continue;
                }
            }
            if show && self.game.ending.is_none() {
                self.show_board()?;
                show = false;
            }
            let prompt = if self.game.ending.is_some() {
                "game over (new, undo, quit)> ".to_string()
            } else {
                format!(
                    "move {}, {} to play (you)> ",
                    self.game.game.position().fullmove(),
                    self.game.human.name()
                )
            };
            self.prompt(&prompt)?;
            let line = match read_line(&mut input, MAX_COMMAND_BYTES) {
                Ok(Some(Line::Text(line))) => line.trim().to_string(),
                Ok(Some(Line::TooLong { bytes })) => {
                    if self.echo {
                        self.say("...")?;
                    }
                    self.say(&format!(
                        "That line is {bytes} bytes long: a command is a word or two. Type help for the commands."
                    ))?;
                    continue;
                }
                // Input that cannot be read is input that has ended.
                Ok(None) | Err(_) => {
                    self.say("")?;
                    return self.end_of_input();
                }
            };
            if self.echo {
                // What was read, quoted as every message quotes input.
                self.say(&excerpt(&line))?;
            }
            match self.command(&line)? {
                Next::Prompt => {}
                Next::Board => show = true,
                Next::Quit => return Ok(()),
            }
        }
    }

    /// At the end of input: an unfinished game is shown as it stands.
    fn end_of_input(&mut self) -> Result<(), PlayError> {
        if self.game.ending.is_none() && !self.game.game.moves().is_empty() {
            let record = self.game.record();
            self.say("End of input: the game is left unfinished. Its record so far:")?;
            self.say(record.to_string().trim_end())?;
        }
        Ok(())
    }

    fn command(&mut self, line: &str) -> Result<Next, PlayError> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Ok(Next::Prompt);
        };
        let rest: Vec<&str> = words.collect();
        let word = word.to_ascii_lowercase();
        match word.as_str() {
            "quit" | "exit" | "q" => {
                if self.game.ending.is_none() && !self.game.game.moves().is_empty() {
                    self.say("Game abandoned.")?;
                }
                return Ok(Next::Quit);
            }
            "help" | "h" => self.say(HELP)?,
            "board" | "b" | "d" => return Ok(Next::Board),
            "new" => {
                if self.game.ending.is_none() && !self.game.game.moves().is_empty() {
                    self.say("Game abandoned.")?;
                }
                self.new_game()?;
                return Ok(Next::Board);
            }
            "undo" | "u" => return self.undo(),
            "resign" => {
                if self.game.ending.is_some() {
                    self.say("The game is already over.")?;
                } else {
                    self.finish(Ending::Resigned(self.game.human))?;
                }
            }
            "hint" => {
                if self.game.ending.is_some() {
                    self.say("The game is over: no hint needed.")?;
                } else {
                    self.hint()?;
                }
            }
            "?" | "preview" | "p" => match rest.first() {
                None => self.say("Which hole? For example: ? 5")?,
                Some(hole) => self.preview(hole)?,
            },
            _ if word.starts_with('?') => self.preview(&word[1..])?,
            _ if word.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') => {
                if !rest.is_empty() {
                    self.say("One move at a time: type a single hole number.")?;
                } else if self.game.ending.is_some() {
                    self.say("The game is over: type new for another game, undo, or quit.")?;
                } else {
                    return self.human_move(&word);
                }
            }
            _ => self.say(&format!(
                "Unknown command '{}'. Type a hole number 1-9, or help.",
                excerpt(line.trim())
            ))?,
        }
        Ok(Next::Prompt)
    }

    /// Checks a typed hole: `Ok(move)` if it is legal now, else explains.
    fn legal_hole(&mut self, text: &str) -> Result<Option<Move>, PlayError> {
        let mv = match parse_hole(text) {
            Ok(mv) => mv,
            Err(message) => {
                self.say(&message)?;
                return Ok(None);
            }
        };
        match self.game.game.position().check(mv) {
            Ok(()) => Ok(Some(mv)),
            Err(reason) => {
                let message = illegal_for_person(reason, &self.engine_name);
                self.say(&message)?;
                Ok(None)
            }
        }
    }

    fn human_move(&mut self, text: &str) -> Result<Next, PlayError> {
        let Some(mv) = self.legal_hole(text)? else {
            return Ok(Next::Prompt);
        };
        let description = explain::describe(
            self.game.game.position(),
            mv,
            self.game.human,
            &self.engine_name,
        );
        self.play(mv)?;
        self.say(&format!("You play {mv}: {description}."))?;
        Ok(Next::Prompt)
    }

    fn preview(&mut self, text: &str) -> Result<(), PlayError> {
        if self.game.ending.is_some() {
            return self.say("The game is over.");
        }
        let Some(mv) = self.legal_hole(text.trim())? else {
            return Ok(());
        };
        let description = explain::describe(
            self.game.game.position(),
            mv,
            self.game.human,
            &self.engine_name,
        );
        self.say(&format!("Preview of {mv}: {description}. (Not played.)"))
    }

    /// Plays a move already checked as legal.
    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.game.game.play(mv).map(|_| ()).map_err(|reason| {
            PlayError::Engine(ClientError::Exited(format!(
                "{} (the move {mv} cannot be played: {reason})",
                self.engine.name
            )))
        })
    }

    /// Sends the game and searches with `go`.
    fn search(&mut self, go: &Go) -> Result<SearchReport, PlayError> {
        self.engine.set_position(&self.game.game)?;
        Ok(self.engine.go(go, self.timeout)?)
    }

    /// The legal move a search answered, if it did.
    fn answered_move(&self, report: &SearchReport) -> Option<Move> {
        let pos = self.game.game.position();
        report
            .best()
            .ok()
            .and_then(|best| best.mv)
            .filter(|&mv| pos.is_legal(mv))
    }

    fn engine_move(&mut self) -> Result<(), PlayError> {
        let go = self.go.clone();
        let report = self.search(&go)?;
        let Some(mv) = self.answered_move(&report) else {
            return Err(PlayError::Engine(ClientError::Exited(format!(
                "{} (it answered the illegal move '{}')",
                self.engine.name,
                excerpt(report.bestmove_token())
            ))));
        };
        let pos = *self.game.game.position();
        let description = explain::describe(&pos, mv, self.game.human, &self.engine_name);
        self.play(mv)?;
        let name = self.engine_name.clone();
        self.say(&format!("{name} plays {mv}: {description}."))
    }

    fn hint(&mut self) -> Result<(), PlayError> {
        self.engine.send(&format!(
            "setoption name {} value {}",
            level_option(),
            Level::FULL_STRENGTH
        ))?;
        let go = self.go.clone();
        let report = self.search(&go);
        self.engine.send(&format!(
            "setoption name {} value {}",
            level_option(),
            self.args.level.name()
        ))?;
        let report = report?;
        let Some(mv) = self.answered_move(&report) else {
            return self.say(&format!(
                "No hint: the engine answered '{}'.",
                excerpt(report.bestmove_token())
            ));
        };
        let score = report
            .best_line()
            .and_then(|l| l.score)
            .map_or("unknown".to_string(), score_for_person);
        let pos = *self.game.game.position();
        let description = explain::describe(&pos, mv, self.game.human, &self.engine_name);
        self.say(&format!(
            "Hint: play {mv}; the engine scores it {score}. It {description}."
        ))
    }

    /// Takes back the person's last move and the engine's reply.
    fn undo(&mut self) -> Result<Next, PlayError> {
        let human = self.game.human;
        let game = &mut self.game.game;
        let Some(last_human) = (0..game.moves().len())
            .rev()
            .find(|&i| game.mover(i) == human)
        else {
            self.say("Nothing to undo: you have not moved yet.")?;
            return Ok(Next::Prompt);
        };
        let taken = game.moves().len() - last_human;
        game.truncate(last_human);
        self.game.ending = None;
        self.say(&format!(
            "Took back {taken} move{}.",
            if taken == 1 { "" } else { "s" }
        ))?;
        Ok(Next::Board)
    }

    /// Announces the end, prints the record and writes it with `--pgn`.
    fn finish(&mut self, ending: Ending) -> Result<(), PlayError> {
        self.game.ending = Some(ending);
        let human = self.game.human;
        let pos = *self.game.game.position();
        self.show_board()?;
        let result = ending.result();
        let headline = match result {
            GameResult::Win(side) if side == human => "You win!".to_string(),
            GameResult::Win(_) => format!("{} wins.", self.engine_name.clone()),
            GameResult::Draw => "A draw.".to_string(),
        };
        let rules_ending = RulesEnding::of(&pos);
        let why = match (ending, rules_ending) {
            (Ending::Rules(..), Some(rules)) => rules.reason(),
            (Ending::Resigned(side), _) if side == human => "you resigned".to_string(),
            (Ending::Resigned(_), _) => format!("{} resigned", self.engine_name.clone()),
            (Ending::Rules(..), None) => "the game is over".to_string(),
        };
        let [white, black] = match (ending, rules_ending) {
            (Ending::Rules(..), Some(rules)) => rules.count,
            _ => Side::BOTH.map(|side| pos.kazan(side) as u32),
        };
        self.say(&format!(
            "Game over: {} ({why}). {headline}",
            result_text(Some(result))
        ))?;
        self.say(&format!("Final score: White {white}, Black {black}."))?;
        let record = self.game.record().to_string();
        self.say("The game record (PlayOK notation):")?;
        self.say(record.trim_end())?;
        if let Some(path) = self.args.pgn.clone() {
            let written = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut file| writeln!(file, "{record}"));
            // The game is over and shown: a record that cannot be kept is
            // said in the session, which goes on.
            match written {
                Ok(()) => self.say(&format!("Record appended to {}.", path.display()))?,
                Err(e) => self.say(&format!(
                    "Cannot write the record to {}: {e}.",
                    path.display()
                ))?,
            }
        }
        self.say("Type new for another game, undo to take back your last move, or quit.")
    }
}

/// What the loop does after a command.
enum Next {
    Prompt,
    Board,
    Quit,
}
