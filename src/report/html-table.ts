import { GLYPHS } from './figures.ts';
import {
  checkName,
  classesText,
  errorCell,
  estimate,
  num,
  pacText,
  resultText,
  reviewVerdictText,
  unknownCell,
} from './format.ts';
import { candidateLlmLines, checkLlmText, equivalenceText } from './llm.ts';
import type { Summary } from './summary.ts';

/**
 * The checks table of the HTML report: the rows as JSON inside the page and a small inline
 * script that renders one page of them at a time, sorts by any column, filters (flagged only,
 * failed only, model, task) and expands a row to its witness. Nothing is fetched; a report of
 * 10,000 checks stays one file and renders 100 rows at a time. Every value reaches the page as
 * text (`textContent`), never as markup: witnesses are candidates' outputs.
 * The state lives in the URL hash (`#flagged&model=a&task=sum&sort=i&desc&open=0`), so a filtered
 * view can be linked to.
 */

/** One row as the script reads it; short keys keep a 10,000-row report small. */
interface Row {
  readonly v: 'pass' | 'fail';
  /** Flagged: the candidates disagree. */
  readonly f: boolean;
  readonly t: string;
  readonly mo: string;
  readonly te: string;
  readonly fi: string;
  readonly c: string;
  readonly m: number | null;
  readonly n: number | null;
  /** Î ± ε as text, and Î for sorting. */
  readonly i: string;
  readonly iv: number | null;
  readonly e: string;
  readonly ev: number | null;
  readonly p: string;
  readonly r: number | null;
  readonly cl: string;
  /** Unknown cells (timeouts, crashes) and whether the check was inconclusive; null when neither. */
  readonly u: string | null;
  readonly s: number | null;
  /** Tokens and cost of the check's model calls; null without any. */
  readonly tk: string | null;
  /** Who judged which outputs are equal and how well it agreed on labelled pairs; null without a judge. */
  readonly eq: string | null;
  /** Each pipeline sample's calls, tokens and cost; empty unless the candidates were pipeline samples. */
  readonly lc: ReadonlyArray<{ readonly label: string; readonly text: string }>;
  /** What a review or triangulation found, as one line; null for other kinds. */
  readonly rs: string | null;
  /** A review's score against τ, verdict and judged inputs. */
  readonly rv: {
    readonly verdict: string;
    readonly score: number | null;
    readonly threshold: number;
    readonly judged: number;
    readonly counts: string;
    readonly reason: string;
  } | null;
  /** A triangulation's selected program (or abstention) and its witnesses. */
  readonly tr: {
    readonly transformation: string;
    readonly outcome: string;
    readonly selected: string | null;
    readonly support: number | null;
    readonly witnesses: readonly string[];
  } | null;
  readonly w: {
    readonly input: string;
    readonly original: string;
    readonly reason: string;
    readonly outputs: ReadonlyArray<{ readonly labels: readonly string[]; readonly outcome: string }>;
    readonly reference: string | null;
  } | null;
}

// Property runs have a table of their own (render-html.ts).
const rowsOf = (summary: Summary): Row[] =>
  summary.rows
    .filter((r) => r.kind !== 'property')
    .map((r) => ({
      v: r.verdict,
      f: r.disagreement === true,
      t: r.task ?? r.test ?? GLYPHS.none,
      mo: r.model ?? GLYPHS.none,
      te: r.test ?? '',
      fi: r.file ?? '',
      c: checkName(r),
      m: r.m,
      n: r.n,
      i: estimate(r.incoherence),
      iv: r.incoherence?.estimate ?? null,
      e: errorCell(r),
      ev: r.error?.estimate ?? null,
      p: pacText(r.pac),
      r: r.spearman === null ? null : Number(num(r.spearman, 2)),
      cl: classesText(r.classes, r.m),
      u: (r.unknownCells ?? 0) > 0 || r.inconclusive !== null ? unknownCell(r) : null,
      s: r.seed,
      tk: checkLlmText(r.llm),
      eq: equivalenceText(r.llm),
      lc: candidateLlmLines(r.llm),
      rs: resultText(r),
      rv: r.review
        ? {
            verdict: reviewVerdictText(r.review.verdict),
            score: r.review.score,
            threshold: r.review.threshold,
            judged: r.review.judged,
            counts: `${r.review.correct} CORRECT, ${r.review.incorrect} INCORRECT, ${r.review.unparseable} unparseable`,
            reason: r.review.reason,
          }
        : null,
      tr: r.triangulation
        ? {
            transformation: r.triangulation.transformation,
            outcome: r.triangulation.outcome,
            selected: r.triangulation.selected,
            support: r.triangulation.support,
            witnesses: r.triangulation.witnesses ?? [],
          }
        : null,
      w: r.witnessDetail
        ? {
            input: r.witnessDetail.input,
            original: r.witnessDetail.original,
            reason: r.witnessDetail.reason,
            outputs: r.witnessDetail.outputs.map((o) => ({ labels: o.labels, outcome: o.outcome })),
            reference: r.witnessDetail.reference,
          }
        : null,
    }));

/** JSON safe inside `<script>`: no `</script>`, no `<!--`, no line separators that end a string. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export const TABLE_STYLE = `
.controls{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin:6px 0 8px}
.controls input[type=search]{width:220px}.controls .count{color:#5b6570}
#checks{table-layout:fixed;width:100%;max-width:1240px}
#checks th{cursor:pointer;user-select:none}#checks th[aria-sort=ascending]::after{content:" ▲"}#checks th[aria-sort=descending]::after{content:" ▼"}
#checks td,#checks th{overflow:hidden;text-overflow:ellipsis;padding:4px 8px}#checks td.wrap{white-space:normal;overflow-wrap:anywhere}
#checks tr.row{cursor:pointer}#checks tr.row:hover{background:#f7f9fb}#checks tr.open{background:#eef4fb}
#checks tr.detail td{white-space:normal;background:#fbfcfd;padding:8px 14px}
.detail dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}.detail dt{color:#5b6570}
.detail dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;overflow-wrap:anywhere}
.pager{display:flex;gap:10px;align-items:center;margin:6px 0}
`;

// Plain ES2017, no dependencies. Reads the rows from #checks-data; renders PAGE rows at a time.
const SCRIPT = `(function(){
var rows=JSON.parse(document.getElementById('checks-data').textContent);
var PAGE=100;
var COLS=[['','v',40],['task','t',140],['model','mo',110],['check','c',150],['m','m',40],['n','n',50],['\\u00ce \\u00b1 \\u03b5','iv',110,'i'],['error','ev',110,'e'],['PAC','p',80],['\\u03c1','r',50],['classes','cl',90],['seed','s',70]];
if(rows.some(function(r){return r.rs!==null;})){COLS.splice(10,0,['result','rs',150]);
var TIGHT={v:32,t:100,mo:90,c:120,iv:100,ev:100,p:80,r:40,cl:60,s:50};COLS.forEach(function(c){if(TIGHT[c[1]])c[2]=TIGHT[c[1]];});}
var NUM={m:1,n:1,iv:1,ev:1,r:1,s:1};
var st={flagged:false,failed:false,model:'',task:'',sort:'',desc:false,page:0,open:-1};
function readHash(){var h=location.hash.replace(/^#/,'');if(!h)return;h.split('&').forEach(function(kv){var i=kv.indexOf('='),k=i<0?kv:kv.slice(0,i),v=i<0?'':decodeURIComponent(kv.slice(i+1));
if(k==='flagged'||k==='failed'||k==='desc')st[k]=true;else if(k==='model'||k==='task'||k==='sort')st[k]=v;else if(k==='page'||k==='open')st[k]=Number(v)||0;});}
function writeHash(){var p=[];if(st.flagged)p.push('flagged');if(st.failed)p.push('failed');if(st.model)p.push('model='+encodeURIComponent(st.model));if(st.task)p.push('task='+encodeURIComponent(st.task));if(st.sort)p.push('sort='+st.sort);if(st.desc)p.push('desc');if(st.page)p.push('page='+st.page);if(st.open>=0)p.push('open='+st.open);
history.replaceState(null,'',p.length?'#'+p.join('&'):location.pathname+location.search);}
function el(tag,text,cls){var e=document.createElement(tag);if(text!=null)e.textContent=String(text);if(cls)e.className=cls;return e;}
var table=document.getElementById('checks'),thead=table.tHead,tbody=table.tBodies[0];
var count=document.getElementById('checks-count'),pageText=document.getElementById('checks-page');
var models={};rows.forEach(function(r){models[r.mo]=1;});
var sel=document.getElementById('f-model');Object.keys(models).sort().forEach(function(m){var o=el('option',m);o.value=m;sel.appendChild(o);});
function visible(){var q=st.task.toLowerCase();var out=[];for(var i=0;i<rows.length;i++){var r=rows[i];
if(st.flagged&&!r.f)continue;if(st.failed&&r.v!=='fail')continue;if(st.model&&r.mo!==st.model)continue;if(q&&r.t.toLowerCase().indexOf(q)<0)continue;out.push(i);}
if(st.sort){var k=st.sort,d=st.desc?-1:1;out.sort(function(a,b){var x=rows[a][k],y=rows[b][k];if(x===y)return a-b;if(x===null||x===undefined)return 1;if(y===null||y===undefined)return -1;if(k==='v'){x=rows[a].v+(rows[a].f?'0':'1');y=rows[b].v+(rows[b].f?'0':'1');}return (x<y?-1:x>y?1:0)*d||a-b;});}
return out;}
function detail(r){var td=el('td');td.colSpan=COLS.length;var dl=el('dl');
function add(k,v){dl.appendChild(el('dt',k));dl.appendChild(el('dd',v));}
add('test',r.te+(r.fi?'  ('+r.fi+')':''));add('seed',r.s===null?'\\u2014':r.s);if(r.r!==null)add('Spearman \\u03c1',r.r);if(r.u!==null)add('unknown cells',r.u);if(r.tk)add('LLM',r.tk);if(r.eq)add('LLM judge',r.eq);r.lc.forEach(function(c){add('LLM '+c.label,c.text);});
if(r.rv){add('review',r.rv.verdict+(r.rv.score===null?': no parseable verdict':': score '+r.rv.score.toFixed(2)+(r.rv.score>=r.rv.threshold?' \\u2265':' <')+' \\u03c4 '+r.rv.threshold.toFixed(2)));add('judged inputs',r.rv.judged+' ('+r.rv.counts+')');add('why',r.rv.reason);}
if(r.tr){add('triangulation',r.tr.transformation);if(r.tr.selected!==null){add('selected',r.tr.selected+(r.tr.support===null?'':' (support '+r.tr.support+')'));add('witnesses',r.tr.witnesses.length?r.tr.witnesses.join(', '):'none recorded');}else add('selected','none: abstained, no program was confirmed by the witnesses');}
if(r.w){add('witness',r.w.input+(r.w.original&&r.w.original!==r.w.input?'   (shrunk from '+r.w.original+')':''));if(r.w.reason)add('why',r.w.reason);
r.w.outputs.forEach(function(o){add(o.labels.join(', '),'\\u2192 '+o.outcome);});if(r.w.reference!==null)add('reference','\\u2192 '+r.w.reference);}
else add('witness','none recorded (no disagreement was seen, or this kind of check has none)');
td.appendChild(dl);var tr=el('tr',null,'detail');tr.appendChild(td);return tr;}
function render(){var idx=visible();var pages=Math.max(1,Math.ceil(idx.length/PAGE));if(st.page>=pages)st.page=pages-1;
var from=st.page*PAGE,to=Math.min(idx.length,from+PAGE);tbody.textContent='';
for(var j=from;j<to;j++){(function(pos,i){var r=rows[i];var tr=el('tr',null,'row'+(st.open===pos?' open':''));
var mark=el('td');mark.appendChild(el('span',r.v==='pass'?'\\u2713':'\\u2717',r.v));if(r.f){mark.appendChild(document.createTextNode(' '));var fl=el('span','\\u2691','flag');fl.title='candidates disagree';mark.appendChild(fl);}tr.appendChild(mark);
COLS.slice(1).forEach(function(col){var v=r[col[3]||col[1]];var td=el('td',v===null||v===undefined?'\\u2014':v,NUM[col[1]]&&!col[3]?'num':col[1]==='rs'?'wrap':'');td.title=td.textContent;tr.appendChild(td);});
tr.addEventListener('click',function(){st.open=st.open===pos?-1:pos;render();});tbody.appendChild(tr);if(st.open===pos)tbody.appendChild(detail(r));})(j,idx[j]);}
count.textContent=idx.length===rows.length?rows.length+' checks':idx.length+' of '+rows.length+' checks';
pageText.textContent=idx.length?'rows '+(from+1)+'\\u2013'+to+' (page '+(st.page+1)+' of '+pages+')':'no check matches';
document.getElementById('p-prev').disabled=st.page===0;document.getElementById('p-next').disabled=st.page>=pages-1;
Array.prototype.forEach.call(thead.rows[0].cells,function(th,c){th.setAttribute('aria-sort',COLS[c][1]===st.sort?(st.desc?'descending':'ascending'):'none');});
writeHash();var box=table.parentNode;document.body.setAttribute('data-overflow',String(document.documentElement.scrollWidth>window.innerWidth||box.scrollWidth>box.clientWidth));}
var hr=thead.rows[0];COLS.forEach(function(c){var th=el('th',c[0]);th.style.width=c[2]+'px';th.title='sort by '+(c[0]||'verdict');th.addEventListener('click',function(){if(st.sort===c[1])st.desc=!st.desc;else{st.sort=c[1];st.desc=!!NUM[c[1]];}st.open=-1;render();});hr.appendChild(th);});
readHash();
var fF=document.getElementById('f-flagged'),fX=document.getElementById('f-failed'),fT=document.getElementById('f-task');
fF.checked=st.flagged;fX.checked=st.failed;sel.value=st.model;fT.value=st.task;
function reset(){st.page=0;st.open=-1;render();}
fF.addEventListener('change',function(){st.flagged=fF.checked;reset();});fX.addEventListener('change',function(){st.failed=fX.checked;reset();});
sel.addEventListener('change',function(){st.model=sel.value;reset();});fT.addEventListener('input',function(){st.task=fT.value;reset();});
document.getElementById('p-prev').addEventListener('click',function(){st.page--;st.open=-1;render();});
document.getElementById('p-next').addEventListener('click',function(){st.page++;st.open=-1;render();});
render();})();`;

/** The checks section: controls, the table the script fills, the rows as JSON, the script. */
export const checksSection = (summary: Summary): string =>
  `<div class="controls">
<label><input type="checkbox" id="f-flagged"> flagged only (candidates disagree)</label>
<label><input type="checkbox" id="f-failed"> failed only</label>
<label>model <select id="f-model"><option value="">all</option></select></label>
<label>task <input type="search" id="f-task" placeholder="filter by task name"></label>
<span class="count" id="checks-count"></span>
</div>
<div class="scroll"><table id="checks"><thead><tr></tr></thead><tbody></tbody></table></div>
<div class="pager"><button type="button" id="p-prev">◀ previous</button><span id="checks-page"></span><button type="button" id="p-next">next ▶</button></div>
<noscript><p>The checks table needs JavaScript; the JSON report holds every row.</p></noscript>
<script type="application/json" id="checks-data">${scriptJson(rowsOf(summary))}</script>
<script>${SCRIPT}</script>`;
