<#-- The NOTICE of the Shelfmark distribution: one line per third-party artifact in lib/, with the
     licences its pom declares. Rendered by license-maven-plugin (add-third-party); Shelfmark's own
     modules are left out here (the plugin's excludedGroups also drops their dependencies). -->
<#assign thirdParty = dependencyMap?filter(entry -> entry.getKey().groupId != "io.shelfmark")/>
Shelfmark
Copyright 2026 the Shelfmark authors

This distribution bundles the ${thirdParty?size} third-party artifacts below in lib/, each under
the licence(s) named before it (as declared in the artifact's Maven metadata).

<#list thirdParty as entry>
<#assign artifact = entry.getKey()/>
<#assign licences = entry.getValue()/>
[<#list licences as licence>${licence}<#sep>, </#sep></#list>] ${artifact.groupId}:${artifact.artifactId}:${artifact.version}<#if artifact.url??> (${artifact.url})</#if>
</#list>
