/**
 * Name parts for the sandbox's FICTIONAL people. Full names are random combinations of a given and
 * a family name (sometimes across Latin-script cultures), so they are invented; parts that are
 * famous as the surname of a specific public figure are left out. With common name parts a
 * combination can still coincide with some real person's name: that is coincidence, not reference.
 *
 * A part is written "display" when its ASCII slug can be derived by folding diacritics, or
 * "display|ascii" for other scripts (Han, Greek, Arabic, Devanagari, Bengali, Cyrillic, Thai...).
 */

export interface NameCulture {
  female: readonly string[];
  male: readonly string[];
  family: readonly string[];
  /** Female family-name forms, index-aligned with `family` (Greek, Slavic languages). */
  familyFemale?: readonly string[];
  /** Family name written first (East Asian and Vietnamese order). */
  familyFirst?: boolean;
}

const w = (text: string): string[] => text.split(',').map((part) => part.trim());

export const NAME_CULTURES: Readonly<Record<string, NameCulture>> = {
  english: {
    female: w('Olivia, Harriet, Imogen, Grace, Maisie, Niamh, Siobhán'),
    male: w('Oliver, Callum, Nathan, Hugo, Rhys, Ciarán, Declan'),
    family: w('Whitaker, Ashdown, Pembrook, Hollis, Fairbairn, Carrow, Thistlewood, Marlowe-Fenn'),
  },
  spanish: {
    female: w('Lucía, Valentina, Camila, Ximena, Inés, Maite'),
    male: w('Mateo, Santiago, Joaquín, Iñaki, Tomás, Álvaro'),
    family: w('Fernández Rojas, Castillo, Muñoz, Herrera, Peña, Ibarra, Quiroga, Solís'),
  },
  portuguese: {
    female: w('Beatriz, Mariana, Luana, Conceição, Thaís'),
    male: w('João, Thiago, Rafael, Vinícius, Caetano'),
    family: w('Gonçalves, Araújo, Ribeiro, Carvalho, Magalhães, Teixeira'),
  },
  french: {
    female: w('Amélie, Camille, Élodie, Maëlle, Solène'),
    male: w('Théo, Étienne, Julien, Loïc, Benoît'),
    family: w('Lefèvre, Moreau, Girard, Rousseau, Béranger, Marchetti-Dubois'),
  },
  german: {
    female: w('Greta, Lena, Anke, Jördis, Friederike'),
    male: w('Jonas, Lukas, Matthias, Jörg, Till'),
    family: w('Schäfer, Becker, Hoffmann, Krüger, Vogel, Weißbach'),
  },
  dutch: {
    female: w('Femke, Sanne, Lieke, Anouk'),
    male: w('Daan, Sem, Joost, Bram'),
    family: w('van der Berg, de Wit, Vermeulen, Bakker, Claes, Jansens'),
  },
  italian: {
    female: w('Giulia, Chiara, Martina, Ilaria'),
    male: w('Lorenzo, Matteo, Niccolò, Fabrizio'),
    family: w('Esposito, Bianchi, Colombo, Ferraro, Galli, Lombardi'),
  },
  nordic: {
    female: w('Zoë, Ingrid, Sigrid, Åsa, Linnéa, Maja'),
    male: w('Søren, Björn, Eirik, Mikkel, Henrik, Torbjørn'),
    family: w('Ångström, Ødegård, Lindqvist, Halvorsen, Bergström, Nyberg, Kjærgaard'),
  },
  finnish: {
    female: w('Aino, Helmi, Venla, Sanna'),
    male: w('Eero, Juha, Ilmari, Onni'),
    family: w('Virtanen, Korhonen, Mäkinen, Heikkilä, Lehtonen'),
  },
  czech: {
    female: w('Tereza, Klára, Markéta, Zuzana'),
    male: w('Jakub, Tomáš, Ondřej, Vojtěch'),
    family: w('Novotný, Dvořák, Černý, Procházka, Kučera'),
    familyFemale: w('Novotná, Dvořáková, Černá, Procházková, Kučerová'),
  },
  polish: {
    female: w('Zofia, Agnieszka, Małgorzata, Ewelina'),
    male: w('Paweł, Krzysztof, Łukasz, Bartosz'),
    family: w('Wiśniewski, Zieliński, Kowalczyk, Jabłoński, Woźniak'),
    familyFemale: w('Wiśniewska, Zielińska, Kowalczyk, Jabłońska, Woźniak'),
  },
  romanian: {
    female: w('Ioana, Andreea, Bianca, Roxana'),
    male: w('Ștefan, Mihai, Radu, Sorin'),
    family: w('Popescu, Ionescu, Dumitrescu, Stănescu, Georgescu'),
  },
  greek: {
    female: w('Μαρία|maria, Ελένη|eleni, Κατερίνα|katerina, Δέσποινα|despoina'),
    male: w('Γιώργος|giorgos, Νίκος|nikos, Δημήτρης|dimitris, Στέλιος|stelios'),
    family: w('Παπαδόπουλος|papadopoulos, Οικονόμου|oikonomou, Γεωργίου|georgiou, Καραλής|karalis, Βλάχος|vlachos'),
    familyFemale: w('Παπαδοπούλου|papadopoulou, Οικονόμου|oikonomou, Γεωργίου|georgiou, Καραλή|karali, Βλάχου|vlachou'),
  },
  ukrainian: {
    female: w('Оксана|oksana, Ганна|hanna, Соломія|solomiia, Дарина|daryna'),
    male: w('Тарас|taras, Богдан|bohdan, Остап|ostap, Дмитро|dmytro'),
    family: w('Бондаренко|bondarenko, Коваленко|kovalenko, Ткачук|tkachuk, Мельник|melnyk, Гнатюк|hnatiuk'),
  },
  turkish: {
    female: w('Elif, Zeynep, Ayşe, Defne'),
    male: w('Emre, Barış, Mehmet, Oğuz'),
    family: w('Yılmaz, Öztürk, Çelik, Aydın, Şahin, Güneş'),
  },
  arabic: {
    female: w('فاطمة|fatima, ليلى|layla, نور|nour, سلمى|salma'),
    male: w('أحمد|ahmed, يوسف|youssef, كريم|karim, طارق|tariq'),
    family: w('المنصوري|al-mansouri, حداد|haddad, الخطيب|al-khatib, العمري|al-omari, النجار|al-najjar'),
  },
  hebrew: {
    female: w('Noa, Tamar, Yael, Shira'),
    male: w('Eitan, Noam, Ariel, Yonatan'),
    family: w('Ben-David, Friedman, Avraham, Shalev, Mizrahi'),
  },
  hindi: {
    female: w('प्रिया|priya, अनन्या|ananya, मीरा|meera, कविता|kavita'),
    male: w('अर्जुन|arjun, रोहन|rohan, विक्रम|vikram, आदित्य|aditya'),
    family: w('शर्मा|sharma, वर्मा|verma, जोशी|joshi, मेहता|mehta, अग्रवाल|agarwal'),
  },
  bengali: {
    female: w('আয়েশা|ayesha, নুসরাত|nusrat, তাসনিম|tasnim'),
    male: w('রাফি|rafi, তানভীর|tanvir, সাকিব|sakib'),
    family: w('হোসেন|hossain, চৌধুরী|chowdhury, সরকার|sarkar, তালুকদার|talukdar'),
  },
  pakistani: {
    female: w('Ayesha, Hira, Mahnoor, Sana'),
    male: w('Bilal, Usman, Hamza, Faraz'),
    family: w('Qureshi, Malik, Siddiqui, Chaudhry, Abbasi'),
  },
  chinese: {
    // Mostly two-character given names: single-character ones collide with too many real people.
    female: w('若溪|ruoxi, 思琪|siqi, 雨桐|yutong, 嘉怡|jiayi, 梓萱|zixuan'),
    male: w('明|ming, 思远|siyuan, 浩然|haoran, 子墨|zimo, 景行|jingxing'),
    family: w('李|li, 王|wang, 张|zhang, 陈|chen, 刘|liu, 赵|zhao'),
    familyFirst: true,
  },
  japanese: {
    female: w('結衣|yui, 陽菜|hina, 美咲|misaki, 葵|aoi'),
    male: w('翔太|shota, 大輔|daisuke, 蓮|ren, 拓海|takumi'),
    family: w('佐藤|sato, 鈴木|suzuki, 高橋|takahashi, 渡辺|watanabe, 山本|yamamoto'),
    familyFirst: true,
  },
  korean: {
    female: w('서연|seoyeon, 하은|haeun, 지우|jiwoo, 수아|sua'),
    male: w('민준|minjun, 지호|jiho, 도윤|doyun, 현우|hyunwoo'),
    family: w('김|kim, 박|park, 최|choi, 정|jung, 강|kang'),
    familyFirst: true,
  },
  vietnamese: {
    female: w('Thị Lan, Thị Mai, Thu Hà, Ngọc Ánh'),
    male: w('Văn Minh, Đức Anh, Quang Huy, Minh Tuấn'),
    family: w('Nguyễn, Trần, Lê, Phạm, Hoàng, Vũ'),
    familyFirst: true,
  },
  thai: {
    female: w('สมศรี|somsri, มาลี|malee, ปราณี|pranee'),
    male: w('สมชาย|somchai, ธนากร|thanakorn, วิชัย|wichai'),
    family: w('ศรีสุข|srisuk, วงศ์ใหญ่|wongyai, แก้วมณี|kaewmanee, บุญมา|boonma'),
  },
  indonesian: {
    female: w('Siti, Putri, Dewi, Ratna'),
    male: w('Budi, Agus, Rizky, Wahyu'),
    family: w('Wijaya, Santoso, Hidayat, Kusuma, Nugroho'),
  },
  filipino: {
    female: w('Maricel, Rowena, Jasmine, Lorna'),
    male: w('Jomar, Rodel, Paolo, Ramil'),
    family: w('Reyes, dela Cruz, Bautista, Villanueva, Mendoza'),
  },
  'west-african': {
    female: w('Chiamaka, Adaeze, Ama, Efua, Aminata'),
    male: w('Chinedu, Kwame, Tunde, Kofi, Moussa'),
    family: w('Okafor, Adeyemi, Mensah, Boateng, Nwosu, Owusu, Traoré'),
  },
  'east-african': {
    female: w('Wanjiru, Achieng, Tigist, Makeda'),
    male: w('Otieno, Kamau, Dawit, Kiprono'),
    family: w('Mwangi, Odhiambo, Tesfaye, Wanyama, Gebremariam'),
  },
  'south-african': {
    female: w('Thandiwe, Lerato, Naledi, Anneke'),
    male: w('Sipho, Thabo, Pieter, Lwazi'),
    family: w('Nkosi, Dlamini, Mokoena, van Wyk, Khumalo'),
  },
};

export const CULTURE_KEYS: readonly string[] = Object.keys(NAME_CULTURES);

/** Latin-script cultures with given-first order: their parts combine across cultures. */
export const MIXABLE_CULTURES: readonly string[] = CULTURE_KEYS.filter((key) => {
  const culture = NAME_CULTURES[key]!;
  return !culture.familyFirst && culture.family.every((part) => !part.includes('|'));
});

/** Splits "display|ascii" (or "display") into its display text and its ASCII slug source. */
export function namePart(part: string): { display: string; ascii: string } {
  const bar = part.indexOf('|');
  return bar < 0 ? { display: part, ascii: part } : { display: part.slice(0, bar), ascii: part.slice(bar + 1) };
}
