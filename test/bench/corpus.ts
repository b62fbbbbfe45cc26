// Deterministic mixed-language text for benchmarks: English, Chinese and Japanese sentences.
const EN = `reading notes margin highlight article idea question answer theory practice garden river city
history science memory attention habit writing research evidence method system design pattern
language culture economy market policy health sleep learning teacher student library archive
window light shadow winter summer morning evening journey letter friend family story novel poem
simple careful quiet patient curious honest bright slow deep clear strong gentle modern ancient`.split(/\s+/);
const ZH = `用户 体验 阅读 笔记 默认 设置 时间 问题 方法 学习 工作 生活 世界 知识 思考 写作 历史 科学 记忆
注意 习惯 研究 证据 系统 设计 模式 语言 文化 经济 市场 政策 健康 睡眠 老师 学生 图书馆 城市 河流
花园 早晨 晚上 旅行 朋友 家庭 故事 小说 诗歌 安静 耐心 好奇 诚实 明亮 深刻 清楚 现代 古代 默想 冥想`.split(
  /\s+/,
);
const JA = `読書 ノート 記事 時間 勉強 日本語 文章 考え 質問 答え 理論 実践 庭 川 町 歴史 科学 記憶 注意
習慣 研究 方法 設計 言葉 文化 経済 健康 睡眠 先生 学生 図書館 朝 夜 旅 友達 家族 物語 小説 詩`.split(/\s+/);
const JA_PARTICLES = ['は', 'が', 'を', 'に', 'の', 'と', 'で'];

export { prng } from '../helpers/prng.ts';

export function sentence(random: () => number, language: 'en' | 'zh' | 'ja'): string {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
  const n = 6 + Math.floor(random() * 10);
  if (language === 'en') {
    const words = Array.from({ length: n }, () => pick(EN));
    return `${words.join(' ').replace(/^\w/, (c) => c.toUpperCase())}.`;
  }
  if (language === 'zh') return `${Array.from({ length: n }, () => pick(ZH)).join('')}。`;
  return `${Array.from({ length: n }, () => `${pick(JA)}${pick(JA_PARTICLES)}`).join('')}。`;
}

export function languageFor(random: () => number): 'en' | 'zh' | 'ja' {
  const r = random();
  return r < 0.5 ? 'en' : r < 0.8 ? 'zh' : 'ja';
}
