#!/usr/bin/env python3
"""Writes Apps/Movies/MoviesServer/Resources/catalog.json, the catalog the movies app ships with.

Facts only: title, release year, a one-line description written for this project (not copied
from any site), and an approximate average vote (from memory, rounded; not TMDB's figure).
release_date is the year alone ("1994"): no month or day is claimed. Ids are this catalog's own.

Run from the repository root:  python3 Apps/Movies/Scripts/make-catalog.py
"""
import json
import os

FILMS = """\
The Shawshank Redemption|1994|8.7|A banker serving a life sentence finds hope and friendship behind prison walls.
The Godfather|1972|8.7|The aging head of a crime family hands his empire to his reluctant youngest son.
The Godfather Part II|1974|8.6|A young Vito Corleone rises in New York while his son Michael tightens his grip.
The Dark Knight|2008|8.5|Batman faces a criminal mastermind who wants to watch Gotham burn.
12 Angry Men|1957|8.5|One juror argues for doubt in a murder trial that seems open and shut.
Schindler's List|1993|8.6|A German industrialist saves over a thousand Jewish workers during the Holocaust.
Pulp Fiction|1994|8.5|Hitmen, a boxer and a gangster's wife cross paths in interlocking Los Angeles stories.
The Lord of the Rings: The Return of the King|2003|8.5|The fellowship's last stand as Frodo nears Mount Doom.
The Good, the Bad and the Ugly|1966|8.5|Three gunslingers race to a fortune in Confederate gold.
Fight Club|1999|8.4|An insomniac office worker and a soap salesman start an underground fight club.
Forrest Gump|1994|8.5|A kind-hearted man drifts through decades of American history.
Inception|2010|8.4|A thief who steals secrets through dreams is asked to plant an idea instead.
The Lord of the Rings: The Fellowship of the Ring|2001|8.4|A hobbit sets out to destroy a ring of terrible power.
The Lord of the Rings: The Two Towers|2002|8.4|The fellowship splits as war comes to Rohan.
The Empire Strikes Back|1980|8.4|The rebels scatter while Luke trains with a Jedi master.
The Matrix|1999|8.2|A hacker learns the world he knows is a simulation.
Goodfellas|1990|8.5|Three decades in the life of a mob associate in New York.
One Flew Over the Cuckoo's Nest|1975|8.4|A rebellious patient challenges the strict nurse of a mental ward.
Seven Samurai|1954|8.5|A village hires seven masterless samurai to fend off bandits.
Se7en|1995|8.4|Two detectives hunt a killer whose murders follow the seven deadly sins.
Life Is Beautiful|1997|8.4|A father shields his son from the horror of a concentration camp with a game.
City of God|2002|8.4|Two boys grow up on different paths in a Rio de Janeiro favela.
The Silence of the Lambs|1991|8.3|An FBI trainee seeks a jailed cannibal's help to catch a serial killer.
It's a Wonderful Life|1946|8.5|An angel shows a despairing man what his town would be without him.
Star Wars|1977|8.2|A farm boy joins a rebellion against a galactic empire.
Saving Private Ryan|1998|8.2|A squad crosses Normandy to bring one paratrooper home.
Spirited Away|2001|8.5|A girl must work in a spirit bathhouse to free her parents.
The Green Mile|1999|8.5|A death row guard meets a gentle inmate with a miraculous gift.
Interstellar|2014|8.4|Astronauts travel through a wormhole to find humanity a new home.
Parasite|2019|8.5|A poor family schemes its way into the household of a wealthy one.
Léon: The Professional|1994|8.3|A hitman takes in a twelve-year-old girl whose family was murdered.
Harakiri|1962|8.5|A ronin asks to commit ritual suicide at a lord's estate, and tells his story.
The Usual Suspects|1995|8.2|A survivor of a harbor massacre tells police about a legendary crime boss.
The Lion King|1994|8.3|A lion cub flees his kingdom after his father's death and must return.
Back to the Future|1985|8.3|A teenager is sent back to 1955 and must get his parents together.
The Pianist|2002|8.4|A Polish-Jewish pianist struggles to survive in occupied Warsaw.
Terminator 2: Judgment Day|1991|8.1|A reprogrammed cyborg protects the boy who will lead humanity.
American History X|1998|8.3|A reformed neo-Nazi tries to keep his brother from his old path.
Modern Times|1936|8.3|The Tramp struggles to get by in the industrialized world.
Psycho|1960|8.4|A secretary on the run stops at a lonely motel run by a troubled young man.
Gladiator|2000|8.2|A betrayed Roman general fights his way back as a gladiator.
City Lights|1931|8.3|The Tramp falls for a blind flower girl and tries to pay for her cure.
The Departed|2006|8.2|An undercover cop and a mole in the police try to unmask each other.
The Intouchables|2011|8.3|A wealthy quadriplegic hires a young man from the projects as his carer.
Whiplash|2014|8.4|A young drummer is pushed to the edge by a ruthless music teacher.
The Prestige|2006|8.2|Two rival magicians in Victorian London sacrifice everything for the perfect trick.
Grave of the Fireflies|1988|8.5|Two orphaned siblings try to survive in Japan at the end of the war.
Casablanca|1942|8.2|A cynical nightclub owner is asked to help his former love escape the Nazis.
Once Upon a Time in the West|1968|8.3|A mysterious harmonica player sides with a widow against a railroad's hired gun.
Rear Window|1954|8.3|A photographer laid up with a broken leg suspects a neighbor of murder.
Alien|1979|8.1|The crew of a space freighter is stalked by a deadly creature.
Apocalypse Now|1979|8.3|An army captain travels upriver to find a renegade colonel in Cambodia.
Memento|2000|8.2|A man without short-term memory hunts his wife's killer using notes and tattoos.
Raiders of the Lost Ark|1981|7.9|An archaeologist races the Nazis to find the Ark of the Covenant.
The Great Dictator|1940|8.2|A Jewish barber is mistaken for a ruthless dictator he resembles.
Cinema Paradiso|1988|8.4|A film director remembers the projectionist who befriended him as a boy.
The Lives of Others|2006|8.2|A Stasi officer listening to a playwright grows attached to his life.
Django Unchained|2012|8.2|A freed slave and a bounty hunter set out to rescue his wife.
Paths of Glory|1957|8.3|A French colonel defends three soldiers court-martialed for cowardice.
The Shining|1980|8.2|A writer wintering in an empty hotel with his family descends into madness.
WALL·E|2008|8.1|A trash-compacting robot on an abandoned Earth falls in love.
Sunset Boulevard|1950|8.3|A struggling screenwriter is drawn into the world of a faded silent star.
Dr. Strangelove|1964|8.1|A deranged general launches a nuclear attack and leaders scramble to stop it.
Princess Mononoke|1997|8.3|A cursed prince is caught in a war between a forest's gods and an iron town.
Oldboy|2003|8.2|A man imprisoned for fifteen years without reason is suddenly released.
Witness for the Prosecution|1957|8.2|An ailing barrister defends a man accused of murdering a rich widow.
Aliens|1986|7.9|Ripley returns with marines to the planet where her crew met the creature.
Once Upon a Time in America|1984|8.3|A former gangster returns to New York and faces his past.
Das Boot|1981|8.1|The crew of a German U-boat endures a harrowing patrol in the Atlantic.
Citizen Kane|1941|8.0|A reporter pieces together the life of a newspaper magnate from his last word.
Vertigo|1958|8.2|A retired detective becomes obsessed with a woman he is hired to follow.
North by Northwest|1959|8.1|An advertising man mistaken for a spy is chased across America.
Reservoir Dogs|1992|8.1|After a botched heist, the surviving thieves suspect one of them is a cop.
Braveheart|1995|7.9|William Wallace leads the Scots in revolt against English rule.
M|1931|8.2|A city's police and its criminals both hunt a child murderer.
Requiem for a Dream|2000|8.0|Four people in Coney Island are consumed by their addictions.
Amélie|2001|7.9|A shy Parisian waitress secretly improves the lives of those around her.
A Clockwork Orange|1971|8.2|A violent young delinquent is subjected to an experimental cure.
Lawrence of Arabia|1962|8.0|A British officer unites Arab tribes against the Ottoman Empire.
Double Indemnity|1944|8.1|An insurance salesman and a married woman plot a murder for the payout.
Taxi Driver|1976|8.1|A lonely veteran driving a cab at night in New York slides into violence.
To Kill a Mockingbird|1962|8.1|A lawyer in the Depression-era South defends a Black man falsely accused.
Eternal Sunshine of the Spotless Mind|2004|8.1|A couple erase each other from their memories after a painful breakup.
Full Metal Jacket|1987|8.1|Marine recruits survive boot camp, then the battle of Hue.
Toy Story|1995|7.9|A cowboy doll feels threatened when a space ranger toy arrives.
Amadeus|1984|8.0|The composer Salieri recounts his jealous rivalry with Mozart.
2001: A Space Odyssey|1968|8.1|A voyage to Jupiter follows a mysterious monolith, with a computer that will not obey.
Singin' in the Rain|1952|8.2|A silent film star and a chorus girl weather Hollywood's move to talkies.
The Sting|1973|8.0|Two grifters plan an elaborate con to avenge a murdered friend.
Bicycle Thieves|1948|8.3|A poor man and his son search Rome for the stolen bicycle he needs to work.
Inglourious Basterds|2009|8.2|A band of Jewish-American soldiers plots to kill Nazi leaders in occupied France.
Toy Story 3|2010|7.9|Andy's toys end up at a daycare as he leaves for college.
Snatch|2000|7.8|A stolen diamond passes through boxers, gangsters and pikeys in London.
The Apartment|1960|8.2|An office clerk lends his apartment to executives for their affairs.
Metropolis|1927|8.1|In a futuristic city, a rich man's son sides with the workers below.
Scarface|1983|8.2|A Cuban refugee rises to run a cocaine empire in Miami.
Heat|1995|7.9|A detective and a master thief circle each other in Los Angeles.
L.A. Confidential|1997|7.8|Three detectives uncover corruption in 1950s Los Angeles.
Up|2009|7.9|An old widower flies his house to South America, with a stowaway scout.
Good Will Hunting|1997|8.1|A janitor with a genius for math works through his past with a therapist.
Rashomon|1950|8.0|Four witnesses give conflicting accounts of a samurai's death.
Unforgiven|1992|7.9|A retired gunfighter takes one last bounty job.
Indiana Jones and the Last Crusade|1989|7.8|Indiana Jones and his father search for the Holy Grail.
Yojimbo|1961|8.1|A wandering samurai plays two warring gangs against each other.
Die Hard|1988|7.8|A New York cop takes on terrorists who seize a Los Angeles skyscraper.
The Wolf of Wall Street|2013|8.0|A stockbroker's rise and fall on a tide of fraud and excess.
Batman Begins|2005|7.7|Bruce Wayne trains abroad and returns to fight crime in Gotham.
Some Like It Hot|1959|8.0|Two musicians who witnessed a mob hit hide in an all-female band.
Green Book|2018|8.2|A bouncer drives a Black pianist on a concert tour of the Deep South.
Downfall|2004|8.0|The last days of Hitler in his Berlin bunker.
The Treasure of the Sierra Madre|1948|8.0|Three prospectors in Mexico are undone by greed.
My Neighbor Totoro|1988|8.1|Two sisters in the countryside befriend forest spirits.
Judgment at Nuremberg|1961|8.1|An American judge presides over the trial of four Nazi judges.
Howl's Moving Castle|2004|8.4|A young woman cursed to be old finds refuge in a wizard's walking castle.
The Great Escape|1963|7.9|Allied prisoners plan a mass breakout from a German camp.
A Beautiful Mind|2001|7.9|A brilliant mathematician struggles with schizophrenia.
Chinatown|1974|7.9|A private eye hired in an adultery case uncovers a water scandal.
The Secret in Their Eyes|2009|7.9|A retired investigator revisits an unsolved rape and murder case.
Raging Bull|1980|7.9|The self-destructive life of boxer Jake LaMotta.
Lock, Stock and Two Smoking Barrels|1998|8.1|Four friends owe a mobster half a million pounds after a rigged card game.
No Country for Old Men|2007|7.9|A hunter takes drug money from a massacre and a killer follows him.
Room|2015|8.1|A mother and her five-year-old son escape the room where they were held captive.
There Will Be Blood|2007|8.1|A ruthless oilman builds his fortune in early twentieth-century California.
The Elephant Man|1980|8.0|A surgeon befriends a severely disfigured man in Victorian London.
The Thing|1982|8.1|Researchers in Antarctica face a creature that imitates its victims.
Jurassic Park|1993|7.9|Dinosaurs cloned for a theme park break loose.
Gran Torino|2008|7.8|A grumpy widowed veteran befriends the Hmong teenager next door.
The Sixth Sense|1999|7.9|A child psychologist treats a boy who sees dead people.
V for Vendetta|2005|7.9|A masked vigilante fights a totalitarian British government.
Trainspotting|1996|7.8|Heroin addicts in Edinburgh try and fail to get clean.
Fargo|1996|7.9|A car salesman's plan to have his wife kidnapped goes badly wrong.
The Big Lebowski|1998|7.8|A laid-back bowler is mistaken for a millionaire and drawn into a kidnapping.
Finding Nemo|2003|7.8|A clownfish crosses the ocean to find his captured son.
Gone with the Wind|1939|8.0|A Southern belle fights to survive the Civil War and its aftermath.
Blade Runner|1982|7.9|A cop hunts rogue replicants in a rainy Los Angeles.
Kill Bill: Vol. 1|2003|7.9|A bride left for dead sets out for revenge on her former assassin team.
Stand by Me|1986|8.0|Four boys in 1959 Oregon hike to see a dead body.
The Truman Show|1998|8.1|A man discovers his whole life is a television show.
Prisoners|2013|8.1|A father takes the law into his own hands when his daughter goes missing.
Hacksaw Ridge|2016|8.2|A conscientious objector serves as a medic at Okinawa without a gun.
Monsters, Inc.|2001|7.8|Two monsters who scare children for power find a girl in their world.
Ratatouille|2007|7.8|A rat who dreams of cooking teams up with a kitchen boy in Paris.
Coco|2017|8.2|A boy who longs to play music enters the Land of the Dead.
Inside Out|2015|7.9|A girl's emotions steer her through a hard move to a new city.
Spider-Man: Into the Spider-Verse|2018|8.4|Teenager Miles Morales becomes Spider-Man and meets others from parallel worlds.
Your Name.|2016|8.5|Two teenagers in different parts of Japan find themselves swapping bodies.
Avengers: Endgame|2019|8.3|The remaining Avengers attempt to undo their defeat by Thanos.
Avengers: Infinity War|2018|8.2|The Avengers try to stop Thanos from collecting the Infinity Stones.
Joker|2019|8.2|A failed comedian in Gotham descends into violence.
The Social Network|2010|7.4|The founding of Facebook and the lawsuits that followed.
Mad Max: Fury Road|2015|7.6|A drifter and a rebel warrior flee a tyrant across the desert.
Gone Girl|2014|7.9|A man becomes the prime suspect when his wife disappears.
The Grand Budapest Hotel|2014|8.0|A legendary concierge and his lobby boy are caught up in a theft and a murder.
Spotlight|2015|7.8|Boston Globe reporters uncover abuse in the Catholic Church.
The Revenant|2015|7.5|A frontiersman left for dead seeks survival and revenge.
Arrival|2016|7.6|A linguist is asked to communicate with aliens who have landed on Earth.
La La Land|2016|7.9|A jazz pianist and an actress fall in love in Los Angeles.
Moonlight|2016|7.4|Three chapters in the life of a young Black man growing up in Miami.
Get Out|2017|7.6|A young Black man uncovers something sinister at his girlfriend's family home.
Blade Runner 2049|2017|7.5|A new blade runner uncovers a secret that could end society.
Dunkirk|2017|7.4|Allied soldiers are evacuated from the beaches of Dunkirk.
Three Billboards Outside Ebbing, Missouri|2017|8.0|A mother challenges local police over her daughter's unsolved murder.
1917|2019|8.0|Two soldiers must cross enemy territory to deliver a warning in time.
Ford v Ferrari|2019|8.0|An engineer and a driver build a Ford to beat Ferrari at Le Mans.
Knives Out|2019|7.8|A detective investigates the death of a wealthy crime novelist.
Once Upon a Time in Hollywood|2019|7.4|A fading actor and his stunt double drift through 1969 Los Angeles.
Dune|2021|7.8|A noble family's heir is drawn into a war over a desert planet.
Everything Everywhere All at Once|2022|7.8|A laundromat owner must connect with other versions of herself to save the multiverse.
Top Gun: Maverick|2022|8.2|A veteran pilot trains young aviators for a dangerous mission.
Oppenheimer|2023|8.1|The physicist who led the making of the atomic bomb, and what it cost him.
Barbie|2023|7.0|Barbie leaves her perfect world for the real one.
Spider-Man: Across the Spider-Verse|2023|8.4|Miles Morales clashes with a society of Spider-People across the multiverse.
Dune: Part Two|2024|8.1|Paul Atreides unites with the Fremen to take revenge on his family's enemies.
Past Lives|2023|7.8|Two childhood friends reunite decades later in New York.
The Zone of Interest|2023|7.1|A Nazi commandant's family lives an ordinary life beside Auschwitz.
Anatomy of a Fall|2023|7.7|A writer stands trial for her husband's death in the Alps.
Poor Things|2023|7.7|A young woman brought back to life sets out to discover the world.
Killers of the Flower Moon|2023|7.5|Members of the Osage Nation are murdered for their oil wealth.
The Holdovers|2023|7.7|A strict teacher stays at school over Christmas with a troubled student.
Titanic|1997|7.9|A young aristocrat and a poor artist fall in love aboard the doomed ship.
Avatar|2009|7.6|A paralyzed marine on an alien moon is torn between his orders and its people.
E.T. the Extra-Terrestrial|1982|7.5|A boy befriends a stranded alien and helps him get home.
Jaws|1975|7.7|A police chief, a scientist and a fisherman hunt a great white shark.
Rocky|1976|7.8|A small-time boxer gets a shot at the heavyweight title.
The Terminator|1984|7.7|A cyborg is sent from the future to kill a woman whose son will lead a rebellion.
Ghostbusters|1984|7.5|Three parapsychologists start a ghost-catching business in New York.
The Breakfast Club|1985|7.8|Five students from different cliques spend a Saturday in detention.
Ferris Bueller's Day Off|1986|7.6|A high schooler skips school for a day in Chicago.
Top Gun|1986|7.0|A hotshot naval aviator competes at an elite fighter school.
Who Framed Roger Rabbit|1988|7.5|A detective helps a cartoon rabbit accused of murder.
Beauty and the Beast|1991|7.7|A bookish young woman is held in the castle of a cursed prince.
Aladdin|1992|7.6|A street thief finds a magic lamp and a wisecracking genie.
Groundhog Day|1993|7.6|A weatherman relives the same day over and over.
The Fugitive|1993|7.4|A doctor wrongly convicted of murdering his wife escapes to find the real killer.
Speed|1994|7.1|A bomb on a bus will go off if it drops below fifty miles an hour.
Heat and Dust|1983|6.5|Two Englishwomen, decades apart, are drawn to India.
Toy Story 2|1999|7.6|Woody is stolen by a collector and his friends set out to rescue him.
The Iron Giant|1999|7.9|A boy befriends a giant robot that fell from the sky.
American Beauty|1999|8.0|A suburban father in a midlife crisis upends his family's life.
Being John Malkovich|1999|7.5|A puppeteer finds a portal into the mind of John Malkovich.
Magnolia|1999|7.7|Lives intersect over one day in the San Fernando Valley.
Office Space|1999|7.3|A software engineer stops caring about his job and things start going his way.
Cast Away|2000|7.7|A courier survives years alone on a deserted island.
Crouching Tiger, Hidden Dragon|2000|7.4|Warriors pursue a stolen sword and a rebellious young noblewoman.
Almost Famous|2000|7.5|A teenage journalist goes on tour with a rising rock band.
O Brother, Where Art Thou?|2000|7.3|Three escaped convicts in 1930s Mississippi search for hidden treasure.
Shrek|2001|7.7|An ogre rescues a princess to get his swamp back.
Ocean's Eleven|2001|7.4|A thief gathers a crew to rob three Las Vegas casinos at once.
Donnie Darko|2001|7.8|A troubled teenager is told the world will end in twenty-eight days.
The Royal Tenenbaums|2001|7.4|An estranged family of former child prodigies reunites.
Mulholland Drive|2001|7.6|An aspiring actress and an amnesiac woman search for answers in Los Angeles.
Catch Me If You Can|2002|7.9|An FBI agent pursues a young con man who poses as a pilot and a doctor.
Minority Report|2002|7.3|A police chief who arrests people before their crimes is accused of one.
Finding Neverland|2004|7.3|J. M. Barrie befriends a widow and her sons, who inspire Peter Pan.
The Incredibles|2004|7.7|A family of undercover superheroes is called back to action.
Million Dollar Baby|2004|8.0|A hardened trainer takes on a determined female boxer.
Hotel Rwanda|2004|7.8|A hotel manager shelters refugees during the Rwandan genocide.
Pan's Labyrinth|2006|7.8|A girl in Francoist Spain finds a mythical labyrinth and a faun's tasks.
Children of Men|2006|7.6|In a world without births, a man protects the first pregnant woman in years.
Little Miss Sunshine|2006|7.6|A dysfunctional family drives their daughter to a beauty pageant.
Departures|2008|7.9|A cellist returns to his hometown and becomes an undertaker's assistant.
Slumdog Millionaire|2008|7.7|A Mumbai teenager reflects on his life while on a quiz show.
Up in the Air|2009|7.0|A man who fires people for a living travels constantly and avoids attachment.
District 9|2009|7.4|A bureaucrat exposed to alien fluid begins to change.
Black Swan|2010|7.7|A ballerina's pursuit of the lead role in Swan Lake unravels her mind.
The King's Speech|2010|7.7|King George VI works with a speech therapist to overcome his stammer.
Toy Story 4|2019|7.5|Woody helps a new homemade toy find its place.
Drive|2011|7.5|A stunt driver moonlighting as a getaway driver protects his neighbor.
The Artist|2011|7.5|A silent film star's career falls as talkies arrive.
Moneyball|2011|7.4|A baseball manager uses statistics to build a winning team on a budget.
Her|2013|7.9|A lonely writer falls in love with his computer's operating system.
12 Years a Slave|2013|7.9|A free Black man from New York is kidnapped and sold into slavery.
Gravity|2013|7.2|Two astronauts are stranded after debris destroys their shuttle.
Nightcrawler|2014|7.7|A driven loner becomes a freelance crime journalist in Los Angeles.
Birdman|2014|7.5|A former superhero actor stages a Broadway play to revive his career.
Ex Machina|2014|7.6|A programmer evaluates the consciousness of a humanoid robot.
The Martian|2015|7.7|An astronaut stranded on Mars has to survive until rescue.
Zootopia|2016|7.7|A rabbit cop and a fox con artist uncover a conspiracy.
Hidden Figures|2016|8.0|Three Black women mathematicians work at NASA during the space race.
Lady Bird|2017|7.3|A teenager in Sacramento clashes with her mother in her last year of high school.
The Shape of Water|2017|7.3|A mute cleaner falls for an amphibious creature held in a lab.
Roma|2018|7.7|A year in the life of a housekeeper for a Mexico City family.
Marriage Story|2019|7.7|A stage director and an actress go through a coast-to-coast divorce.
Soul|2020|7.9|A jazz musician's soul is separated from his body just before his big break.
Nomadland|2020|7.3|A woman who lost everything travels the American West in a van.
The Father|2020|8.1|An elderly man with dementia struggles to make sense of his world.
Encanto|2021|7.6|The one member of a magical family without powers may be their only hope.
The Banshees of Inisherin|2022|7.4|A man on an Irish island is baffled when his best friend ends their friendship.
All Quiet on the Western Front|2022|7.8|A young German soldier's ideals are destroyed on the Western Front.
Aftersun|2022|7.7|A woman remembers a holiday in Turkey with her young father.
The Seventh Seal|1957|8.1|A knight returning from the Crusades plays chess with Death.
Wild Strawberries|1957|8.0|An elderly professor revisits his past on a road trip.
Persona|1966|8.0|A nurse and her silent patient begin to merge identities.
8½|1963|8.0|A blocked film director retreats into memories and fantasies.
La Dolce Vita|1960|7.9|A journalist drifts through a week of Rome's high society.
The 400 Blows|1959|8.0|A misunderstood Parisian boy drifts into petty crime.
Breathless|1960|7.7|A small-time crook and an American student drift through Paris.
Tokyo Story|1953|8.1|An elderly couple visit their busy grown-up children in Tokyo.
Ikiru|1952|8.1|A bureaucrat with terminal cancer seeks meaning in his last months.
Throne of Blood|1957|7.9|Macbeth retold among samurai in feudal Japan.
Ran|1985|8.0|An aging warlord divides his kingdom among his three sons.
Akira|1988|7.9|A biker gang member gains psychic powers in Neo-Tokyo.
Ghost in the Shell|1995|7.8|A cyborg officer hunts a hacker known as the Puppet Master.
Perfect Blue|1997|8.2|A pop idol turned actress loses her grip on reality.
Nausicaä of the Valley of the Wind|1984|7.9|A princess tries to make peace between humans and a toxic jungle.
Castle in the Sky|1986|8.0|Two children search for a legendary floating castle.
Kiki's Delivery Service|1989|7.8|A young witch starts a flying delivery service in a seaside town.
Porco Rosso|1992|7.8|A pilot cursed to look like a pig hunts sky pirates over the Adriatic.
The Wind Rises|2013|7.9|The life of the engineer who designed Japanese fighter planes.
A Silent Voice|2016|8.4|A former bully seeks to make amends with a deaf girl he tormented.
Burning|2018|7.4|A young man suspects a wealthy acquaintance of a disappearance.
Memories of Murder|2003|8.0|Detectives in rural Korea hunt the country's first serial killer.
The Handmaiden|2016|8.2|A pickpocket is hired as a maid to help swindle a Japanese heiress.
Train to Busan|2016|7.8|Passengers fight to survive a zombie outbreak on a train to Busan.
In the Mood for Love|2000|8.0|Two neighbors discover their spouses are having an affair.
Chungking Express|1994|7.9|Two lovesick Hong Kong policemen and the women who change their lives.
Infernal Affairs|2002|7.9|A police mole in a triad and a triad mole in the police hunt each other.
Farewell My Concubine|1993|7.9|Two Peking opera performers' friendship spans decades of Chinese turmoil.
Rang De Basanti|2006|7.8|Students making a film about revolutionaries begin to act like them.
3 Idiots|2009|8.0|Two friends search for a long-lost college companion.
Lagaan|2001|7.6|Villagers under British rule stake their taxes on a cricket match.
Dangal|2016|8.0|A former wrestler trains his daughters to become champions.
Pather Panchali|1955|8.0|A poor family's life in a Bengal village, seen through a young boy.
Central Station|1998|8.0|A retired teacher helps a boy search for his father across Brazil.
Amores Perros|2000|7.6|A car crash links three stories in Mexico City.
The Motorcycle Diaries|2004|7.5|A young Che Guevara and a friend cross South America by motorcycle.
Wild Tales|2014|7.9|Six stories of people pushed to revenge.
A Separation|2011|7.9|An Iranian couple's separation leads to a legal dispute over a caregiver.
The Hunt|2012|8.1|A kindergarten teacher's life falls apart after a false accusation.
Another Round|2020|7.6|Four teachers test a theory that a little alcohol improves life.
Run Lola Run|1998|7.6|A woman has twenty minutes to find a fortune to save her boyfriend.
Good Bye Lenin!|2003|7.5|A son hides the fall of the Berlin Wall from his fragile mother.
The Wages of Fear|1953|8.0|Four desperate men drive trucks of nitroglycerine across mountain roads.
Les Diaboliques|1955|7.9|A wife and a mistress plot to murder the man they share.
La Haine|1995|8.0|Three friends wander Paris a day after a riot.
Portrait of a Lady on Fire|2019|8.1|A painter secretly portrays a young woman about to be married.
The Battle of Algiers|1966|8.0|The Algerian struggle for independence from France.
Fanny and Alexander|1982|7.9|Two siblings' lives change when their mother remarries a strict bishop.
Wings of Desire|1987|7.8|An angel watching over Berlin longs to become human.
Paris, Texas|1984|7.9|A man who wandered out of the desert tries to reunite his family.
Do the Right Thing|1989|7.7|Racial tension boils over on a hot day in Brooklyn.
Boyz n the Hood|1991|7.6|Friends grow up amid gang violence in South Central Los Angeles.
Dead Poets Society|1989|8.3|An unorthodox English teacher inspires his students at a strict prep school.
Rain Man|1988|7.7|A selfish hustler drives cross-country with his autistic brother.
Platoon|1986|7.8|A young soldier in Vietnam is caught between two sergeants.
The Deer Hunter|1978|7.9|Three steelworkers are scarred by the Vietnam War.
Annie Hall|1977|7.7|A neurotic comedian looks back on his relationship with Annie.
Network|1976|7.8|A television network exploits an anchorman's on-air breakdown.
Dog Day Afternoon|1975|7.8|A bank robbery in Brooklyn turns into a media circus.
Barry Lyndon|1975|7.8|An Irish rogue climbs into eighteenth-century English aristocracy.
The Conversation|1974|7.6|A surveillance expert fears a recording he made will lead to murder.
The French Connection|1971|7.5|Two New York detectives chase a heroin smuggling ring.
Butch Cassidy and the Sundance Kid|1969|7.6|Two outlaws flee a relentless posse to Bolivia.
The Graduate|1967|7.7|A recent graduate is seduced by an older woman, then falls for her daughter.
Bonnie and Clyde|1967|7.5|A young couple's bank-robbing spree across the Depression-era South.
Cool Hand Luke|1967|7.8|A prisoner on a chain gang refuses to submit.
In the Heat of the Night|1967|7.7|A Black detective from Philadelphia investigates a murder in Mississippi.
The Sound of Music|1965|7.7|A governess brings music to a widowed captain's family in Austria.
Mary Poppins|1964|7.4|A magical nanny transforms a London family.
The Birds|1963|7.5|Birds inexplicably begin attacking a California town.
West Side Story|1961|7.2|Rival New York gangs and a forbidden love.
Breakfast at Tiffany's|1961|7.6|A New York socialite befriends a struggling writer.
Ben-Hur|1959|7.8|A Jewish prince is enslaved by a Roman friend and seeks revenge.
Rebel Without a Cause|1955|7.6|A troubled teenager arrives in a new town.
On the Waterfront|1954|7.9|A dockworker stands up to a corrupt union boss.
Roman Holiday|1953|8.0|A princess escapes her duties for a day in Rome with a reporter.
All About Eve|1950|8.0|An ambitious young fan schemes her way into a Broadway star's life.
The Third Man|1949|8.0|A writer in postwar Vienna investigates his friend's mysterious death.
The Maltese Falcon|1941|7.7|A private detective is drawn into a hunt for a jeweled statuette.
The Wizard of Oz|1939|7.6|A Kansas girl is swept away to a magical land.
Snow White and the Seven Dwarfs|1937|7.1|A princess hides from her jealous stepmother with seven dwarfs.
It Happened One Night|1934|7.7|A runaway heiress travels with a reporter who knows who she is.
Nosferatu|1922|7.7|A vampire brings plague to a German town.
The Kid|1921|8.1|The Tramp raises an abandoned child.
The General|1926|8.0|A train engineer chases Union spies who stole his locomotive.
Sherlock Jr.|1924|8.0|A projectionist dreams himself into the detective film he is showing.
The Passion of Joan of Arc|1928|8.0|The trial and execution of Joan of Arc.
Frankenstein|1931|7.6|A scientist creates life and loses control of his creation.
King Kong|1933|7.6|A film crew brings a giant ape from a remote island to New York.
"""


def main():
    movies = []
    seen = set()
    for number, line in enumerate(FILMS.strip().splitlines(), start=1):
        title, year, vote, overview = line.split("|")
        assert (title, year) not in seen, title
        seen.add((title, year))
        movies.append(
            {
                "id": number,
                "title": title,
                "release_date": year,
                "overview": overview,
                "vote_average": float(vote),
            }
        )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    path = os.path.join(root, "Apps", "Movies", "MoviesServer", "Resources", "catalog.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(movies, file, ensure_ascii=False, indent=1)
        file.write("\n")
    print(f"wrote {len(movies)} films to {path}")


if __name__ == "__main__":
    main()
